import net from 'node:net';
import path from 'node:path';
import { repoRoot } from '@heroes/db';
import { spawnProcess, type SpawnedProcess } from '@heroes/http-kit/testing';

export { freePort } from '@heroes/http-kit/testing';

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
