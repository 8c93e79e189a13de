/**
 * How a server process is told to stop, and how it stops: it logs why,
 * runs `stop` (a drain), then exits 0, or 1 when stopping failed. Asked
 * twice, the second request is ignored (the drain has its own limit).
 *
 * Who asks (docs/operations.md, "Stopping"):
 * - run on its own (systemd, Docker, a shell): SIGINT or SIGTERM;
 * - run by a supervisor over an IPC channel (`npm start`'s scripts/start,
 *   the cluster primary): the supervisor alone, with STOP_MESSAGE, or by
 *   going away (the channel closes: kill -9 of the supervisor is noticed at
 *   once). SIGINT, SIGTERM and SIGHUP are then ignored (logged): they come
 *   to the whole process group (Ctrl-C, a closed terminal, systemd's control
 *   group), and the supervisor decides the order in which its servers stop.
 *
 * Usage:
 *   stopOnSignals(() => server.close(), logger);
 *   child.send(STOP_MESSAGE); // in the supervisor
 */
import type { Logger } from 'pino';
import { flushSpans } from '../tracing/spans.ts';

/** What a supervisor sends over the IPC channel to stop a supervised server. */
export const STOP_MESSAGE = Object.freeze({ type: 'heroes:stop' });

/** Whether this process has a supervisor at the other end of an IPC channel. */
export function isSupervised(): boolean {
  return typeof process.send === 'function' && process.connected;
}

/**
 * Runs `onStop` once, on the first request to stop (see above).
 *
 * Usage:
 *   whenAskedToStop((reason) => { ... }, logger);
 */
export function whenAskedToStop(onStop: (reason: string) => void, logger: Logger): void {
  let asked = false;
  const ask = (reason: string) => {
    if (asked) return;
    asked = true;
    onStop(reason);
  };
  if (!isSupervised()) {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => ask(signal));
    return;
  }
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => logger.info({ signal }, 'signal ignored: the supervisor stops this process'));
  }
  process.on('message', (message: unknown) => {
    if ((message as { type?: unknown } | null)?.type === STOP_MESSAGE.type) ask('supervisor');
  });
  process.once('disconnect', () => ask('supervisor gone'));
  // The channel alone must not keep the process alive.
  (process.channel as { unref?: () => void } | undefined)?.unref?.();
}

export function stopOnSignals(stop: () => Promise<unknown>, logger: Logger): void {
  whenAskedToStop((reason) => {
    logger.info(reason.startsWith('SIG') ? { signal: reason } : { reason }, 'stopping');
    stop().then(flushSpans).then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'unclean stop');
        process.exit(1);
      },
    );
  }, logger);
}
