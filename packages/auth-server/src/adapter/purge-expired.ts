/**
 * Deletes expired tokens, codes and provider records on an interval, and
 * login-throttle rows (throttle/login-throttle.ts) that no longer refuse
 * anything and were started over a day ago, so guesses with random
 * usernames or addresses cannot grow that table without end.
 *
 * Rules enforced here:
 * - the timer is unref'd: it never keeps the process alive;
 * - a failed run is logged and retried at the next tick, never thrown;
 * - runs never overlap.
 */
import type { PrismaClient } from '@heroes/db';
import type { Logger } from 'pino';

export interface PurgeResult {
  accessTokens: number;
  refreshTokens: number;
  authorizationCodes: number;
  records: number;
  loginThrottles: number;
}

/** Age after which an idle login-throttle row is forgotten. */
export const THROTTLE_ROW_TTL_MS = 24 * 60 * 60_000;

/** One purge run. Usage: `const counts = await purgeExpired(db);` */
export async function purgeExpired(db: PrismaClient, now = new Date()): Promise<PurgeResult> {
  const expired = { expiresAt: { lte: now } };
  const staleBefore = new Date(now.getTime() - THROTTLE_ROW_TTL_MS);
  const [accessTokens, refreshTokens, authorizationCodes, records, loginThrottles] = await Promise.all([
    db.accessToken.deleteMany({ where: expired }),
    db.refreshToken.deleteMany({ where: expired }),
    db.authorizationCode.deleteMany({ where: expired }),
    db.oidcRecord.deleteMany({ where: expired }),
    db.loginThrottle.deleteMany({
      where: { windowStart: { lte: staleBefore }, OR: [{ blockedUntil: null }, { blockedUntil: { lte: now } }] },
    }),
  ]);
  return {
    accessTokens: accessTokens.count,
    refreshTokens: refreshTokens.count,
    authorizationCodes: authorizationCodes.count,
    records: records.count,
    loginThrottles: loginThrottles.count,
  };
}

/** Starts the interval; returns a function that stops it. */
export function startPurgeTimer(db: PrismaClient, intervalMs: number, logger?: Logger): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    purgeExpired(db)
      .then((counts) => logger?.debug(counts, 'purged expired tokens'))
      .catch((err: unknown) => logger?.error({ err }, 'purging expired tokens failed'))
      .finally(() => { running = false; });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
