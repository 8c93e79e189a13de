import net from 'node:net';
import path from 'node:path';
import { repoRoot } from '@heroes/test-kit';
import { createOpenApiDocument } from '@heroes/resource-server';
import { checkAnswersOf, spawnProcess, type SpawnedProcess } from '@heroes/test-kit';

export { freePort } from '@heroes/test-kit';

export interface RunningStack extends SpawnedProcess {
  /** SIGINT by default, as Ctrl-C; the stack gets a minute to stop before SIGKILL. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Runs `npm start`'s script as a real process and waits for its ready banner. */
export async function startStack(env: NodeJS.ProcessEnv, timeoutMs = 90_000): Promise<RunningStack> {
  const stack = await spawnProcess(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'scripts/start.ts')], {
    cwd: repoRoot,
    env,
    inheritEnv: false,
    ready: /Heroes service is running/,
    timeoutMs,
  });
  // Every answer a test receives from this edge must match /openapi.json.
  for (const host of ['127.0.0.1', 'localhost']) checkAnswersOf(`http://${host}:${env.PORT ?? 8888}`, createOpenApiDocument());
  return { ...stack, stop: (signal = 'SIGINT') => stack.stop(signal, 60_000) };
}

/** The command lines of the direct children of a process (Linux /proc). */
export async function childCommands(pid: number): Promise<{ pid: number; command: string }[]> {
  const { readdir, readFile } = await import('node:fs/promises');
  const found: { pid: number; command: string }[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent !== pid) continue;
      const command = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).split('\0').join(' ');
      found.push({ pid: Number(entry), command });
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

export function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}

/**
 * The local addresses with a listening TCP socket on `port` (Linux
 * /proc/net/tcp and tcp6), e.g. ['127.0.0.1'] or ['0.0.0.0'] or ['::'].
 */
export async function listeningAddresses(port: number): Promise<string[]> {
  const { readFile } = await import('node:fs/promises');
  const found: string[] = [];
  for (const [file, v6] of [['/proc/net/tcp', false], ['/proc/net/tcp6', true]] as const) {
    const table = await readFile(file, 'utf8').catch(() => '');
    for (const line of table.split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (state !== '0A' || !local) continue; // 0A: LISTEN
      const [hex = '', portHex = ''] = local.split(':');
      if (Number.parseInt(portHex, 16) !== port) continue;
      found.push(v6 ? ipv6FromProc(hex) : ipv4FromProc(hex));
    }
  }
  return found;
}

function ipv4FromProc(hex: string): string {
  return [3, 2, 1, 0].map((i) => Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16)).join('.');
}

function ipv6FromProc(hex: string): string {
  // Four 32-bit words, each little-endian.
  const bytes: number[] = [];
  for (let word = 0; word < 4; word++) for (const i of [3, 2, 1, 0]) bytes.push(Number.parseInt(hex.slice(word * 8 + i * 2, word * 8 + i * 2 + 2), 16));
  const groups = Array.from({ length: 8 }, (_, i) => ((bytes[i * 2]! << 8) | bytes[i * 2 + 1]!).toString(16));
  return net.isIPv6(groups.join(':')) ? new net.SocketAddress({ address: groups.join(':'), family: 'ipv6' }).address : groups.join(':');
}
