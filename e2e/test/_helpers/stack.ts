import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { repoRoot } from '@heroes/db';

export interface RunningStack {
  child: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Runs `npm start`'s script as a real process and waits for its ready banner. */
export async function startStack(env: NodeJS.ProcessEnv, timeoutMs = 90_000): Promise<RunningStack> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'scripts/start.ts')], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = await Promise.race([
    new Promise<boolean>((resolve) => {
      const started = Date.now();
      const timer = setInterval(() => {
        const ready = output.includes('Heroes service is running');
        if (ready || Date.now() - started > timeoutMs || child.exitCode !== null) {
          clearInterval(timer);
          resolve(ready);
        }
      }, 50);
    }),
    exited.then(() => false),
  ]);
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error(`the stack did not start:\n${output}`);
  }
  return {
    child,
    output: () => output,
    async stop(signal = 'SIGINT') {
      child.kill(signal);
      return exited;
    },
  };
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
