/**
 * The one spawner of servers, the start script and CLIs in tests: starts a real child process and waits until its
 * stdout and stderr together match `ready`.
 * Usage: const server = await spawnProcess(node, args, { cwd, env, ready: /"url":"([^"]+)"/ }); server.match[1]; await server.stop()
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface SpawnedProcess {
  child: ChildProcess;
  /** What `ready` matched. */
  match: RegExpExecArray;
  /** Everything printed so far. */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Sends `signal` (SIGTERM by default), SIGKILL after `killAfterMs`; resolves with the exit code. */
  stop(signal?: NodeJS.Signals, killAfterMs?: number): Promise<number | null>;
}

export interface SpawnOptions {
  cwd?: string;
  /** Added to the parent's environment (or, with `inheritEnv: false`, the whole environment). */
  env?: NodeJS.ProcessEnv;
  inheritEnv?: boolean;
  ready: RegExp;
  timeoutMs?: number;
  /** 'pipe' keeps a pipe to the child's stdin open while this process lives (default: 'ignore'). */
  stdin?: 'ignore' | 'pipe';
}

export function spawnProcess(command: string, args: string[], options: SpawnOptions): Promise<SpawnedProcess> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.inheritEnv === false ? options.env : { ...process.env, ...options.env },
    stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = (signal: NodeJS.Signals = 'SIGTERM', killAfterMs = 10_000) => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      void exited.then(() => clearTimeout(timer));
    }
    return exited;
  };
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${[command, ...args].join(' ')} ${why}:\n${output}`));
    };
    const timer = setTimeout(() => fail(`printed nothing matching ${options.ready} within ${timeoutMs} ms`), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = settled ? null : options.ready.exec(output);
      if (!match) return;
      settled = true;
      clearTimeout(timer);
      resolve({ child, match, output: () => output, exited, stop });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => fail(`exited early (${code})`));
  });
}
