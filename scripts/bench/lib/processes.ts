/**
 * Child processes of the benchmark (the two servers, the raw anchor): every
 * one is stopped by stopAll(), SIGTERM then SIGKILL after 10 s.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PRODUCTION_NODE_OPTIONS, PRODUCTION_RUNTIME_ENV } from '../../start/production-runtime.ts';

const children: ChildProcess[] = [];
const expectedExits = new WeakSet<ChildProcess>();
let stopping = false;

export interface NodeProcess {
  child: ChildProcess;
  pid: number;
}


/**
 * A `.ts` entry runs through tsx; a `.js` one (compiled, `dist/`) runs as the
 * production image runs it: `node entry` with its NODE_OPTIONS.
 *
 * Usage:
 *   const server = spawnNode('resource-server', entry, env, logDir, onUnexpectedExit);
 */
export function spawnNode(name: string, entry: string, env: NodeJS.ProcessEnv, cwd: string, logDir: string, onExit: (message: string) => void): NodeProcess {
  const log = fs.openSync(path.join(logDir, `${name}.log`), 'w');
  const compiled = entry.endsWith('.js');
  const args = [...profileArgs(name), ...(compiled ? [entry] : ['--import', 'tsx', entry])];
  const childEnv = compiled ? { ...PRODUCTION_RUNTIME_ENV, ...env, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} ${PRODUCTION_NODE_OPTIONS}`.trim() } : env;
  const child = spawn(process.execPath, args, { env: childEnv, cwd, stdio: ['ignore', log, log] });
  child.on('exit', (code, signal) => {
    if (!stopping && !expectedExits.has(child)) onExit(`${name} exited (${signal ?? code}); see ${logDir}/${name}.log`);
  });
  children.push(child);
  return { child, pid: child.pid! };
}

/**
 * BENCH_CPU_PROF=<folder>: every process started here writes a V8 CPU
 * profile there when it exits (`node --cpu-prof`, which Node refuses in
 * NODE_OPTIONS), in a folder named after the process, one file per thread
 * (Node's own names, `CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile`).
 */
function profileArgs(name: string): string[] {
  const folder = process.env.BENCH_CPU_PROF;
  if (!folder) return [];
  return ['--cpu-prof', `--cpu-prof-dir=${path.resolve(folder, name)}`];
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  expectedExits.add(child);
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function stopAll(): Promise<void> {
  stopping = true;
  await Promise.all(children.map(stopProcess));
}

export { freePort } from '@heroes/test-kit';

export async function waitForPort(port: number): Promise<void> {
  for (let attempt = 0; attempt < 600 && !stopping; attempt++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!stopping) throw new Error(`nothing listens on port ${port}`);
}
