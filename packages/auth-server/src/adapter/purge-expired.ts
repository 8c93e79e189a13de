/**
 * Runs @heroes/db's purge of expired rows on an interval: the timer is unref'd (it never keeps the process
 * alive), a failed run is logged and retried at the next tick (never thrown), and runs never overlap.
 */
import { purgeExpired, type PrismaClient, type PurgeOptions } from '@heroes/db';
import type { Logger } from 'pino';

export { purgeExpired, type PurgeResult } from '@heroes/db';

/** Starts the interval; returns a function that stops it. */
export function startPurgeTimer(db: PrismaClient, intervalMs: number, logger?: Logger, options: PurgeOptions = {}): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    purgeExpired(db, new Date(), options)
      .then((counts) => logger?.debug(counts, 'purged expired tokens'))
      .catch((err: unknown) => logger?.error({ err }, 'purging expired tokens failed'))
      .finally(() => { running = false; });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
