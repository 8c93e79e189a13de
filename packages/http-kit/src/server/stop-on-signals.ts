/**
 * How a server process stops: on the first SIGINT or SIGTERM it logs the
 * signal, runs `stop` (a drain), then exits 0, or 1 when stopping failed.
 * A second signal while stopping is ignored (the drain has its own limit).
 *
 * Usage:
 *   stopOnSignals(() => server.close(), logger);
 */
import type { Logger } from 'pino';

export function stopOnSignals(stop: () => Promise<unknown>, logger: Logger): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    stop().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'unclean stop');
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => onSignal(signal));
}
