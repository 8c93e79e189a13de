/**
 * Runs one server process and restarts it when it dies unasked: backoff 250 ms doubling to 8 s (reset after 30 s
 * up), giving up on @heroes/platform's CrashLoop rule or at once before `restartOnCrash` (a start-up failure is reported, not
 * retried). The child stops when told over IPC (@heroes/platform's stopOnSignals) or when this process dies; stop()
 * sends STOP_MESSAGE (SIGTERM while loading), SIGKILL after `killAfterMs`; holdRestarts() during a shutdown.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { CrashLoop, STOP_MESSAGE } from '@heroes/platform';
import { LOADED } from './handover.ts';

export interface SupervisorOptions {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  log(line: string): void;
  onGiveUp(): void;
  killAfterMs: number;
  /**
   * With `args` running start/load-then-run.ts: the rest of the process's
   * environment, handed over on its IPC channel once it has loaded its
   * modules (so a process can load while the database starts).
   */
  environment?: Promise<Record<string, string>>;
}

const FIRST_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 8_000;
const STABLE_AFTER_MS = 30_000;

export class Supervisor {
  private child: ChildProcess | undefined;
  private stopping = false;
  private backoffMs = FIRST_BACKOFF_MS;
  private readonly crashLoop = new CrashLoop();
  private restartTimer: NodeJS.Timeout | undefined;
  private startedAt = 0;

  constructor(private readonly options: SupervisorOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Number of restarts so far. */
  restarts = 0;

  /** Set once the service is up: from then on a crash restarts the process. */
  restartOnCrash = false;

  start(): void {
    const { command, args, env, cwd, environment } = this.options;
    const child = spawn(command, args, { stdio: ['inherit', 'inherit', 'inherit', 'ipc'], env, cwd });
    // An unexpected channel error (the child just died) is seen as its exit.
    child.on('error', (err) => this.options.log(`${this.options.name}: ${err.message}`));
    this.child = child;
    if (environment) {
      child.on('message', (message) => {
        if (message !== LOADED) return;
        // Rejected: the database never came; npm start reports it and stops us.
        environment.then((rest) => child.connected && child.send(rest, () => {}), () => {});
      });
    }
    this.startedAt = Date.now();
    child.once('exit', (code, signal) => this.exited(child, code, signal));
  }

  private exited(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child !== child) return;
    this.child = undefined;
    if (this.stopping) return;
    const now = Date.now();
    if (now - this.startedAt > STABLE_AFTER_MS) this.backoffMs = FIRST_BACKOFF_MS;
    const { deaths, givesUp, withinSeconds } = this.crashLoop.died(now);
    const how = signal ?? `code ${code}`;
    if (!this.restartOnCrash) {
      this.options.log(`${this.options.name} exited (${how}) while starting`);
      this.options.onGiveUp();
      return;
    }
    if (givesUp) {
      this.options.log(`${this.options.name} exited (${how}); ${deaths} crashes within ${withinSeconds} s, giving up`);
      this.options.onGiveUp();
      return;
    }
    this.options.log(`${this.options.name} exited (${how}); restarting in ${this.backoffMs} ms`);
    this.restartTimer = setTimeout(() => {
      this.restarts++;
      if (!this.stopping) this.start();
    }, this.backoffMs);
    this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
  }

  /** From now on a server that exits stays down (a shutdown has begun). */
  holdRestarts(): void {
    this.stopping = true;
    clearTimeout(this.restartTimer);
  }

  /** Tells the child to stop, then waits for the exit (SIGKILL after killAfterMs). */
  async stop(): Promise<void> {
    this.holdRestarts();
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.options.log(`stopping ${this.options.name}`);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.options.log(`${this.options.name} did not stop within ${this.options.killAfterMs} ms; killing it`);
        child.kill('SIGKILL');
      }, this.options.killAfterMs);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        this.options.log(`${this.options.name} stopped (${signal ?? `code ${code}`})`);
        resolve();
      });
      // Both: a server that listens for the message ignores the signal; one
      // still loading its code (no listener yet, nothing served) ends on it.
      if (child.connected) child.send(STOP_MESSAGE);
      child.kill('SIGTERM');
    });
  }
}
