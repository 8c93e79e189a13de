/**
 * How a server process is told to stop (docs/operations.md, "Stopping"): alone, by SIGINT or SIGTERM; under a
 * supervisor (npm start, the cluster primary), only by STOP_MESSAGE or the IPC channel closing, and the group's
 * signals are ignored so the supervisor orders the stops. It logs why, runs `stop`, exits 0 (1 if stopping failed);
 * a second request is ignored.
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
