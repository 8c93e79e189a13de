/**
 * Deletes expired tokens, codes and provider records on an interval, and
 * login-throttle rows (throttle/login-throttle.ts) that no longer refuse
 * anything and were started over a day ago, so guesses with random
 * usernames or addresses cannot grow that table without end, and known
 * addresses whose last success is older than LOGIN_KNOWN_ADDRESS_DAYS,
 * and audit events older than AUDIT_RETENTION_DAYS.
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
  knownAddresses: number;
  auditEvents: number;
}

export interface PurgeOptions {
  /** Known addresses older than this are forgotten, ms. Default 30 days. */
  knownAddressTtlMs?: number;
  /** Audit events older than this are deleted, ms (AUDIT_RETENTION_DAYS). Default 90 days. */
  auditRetentionMs?: number;
}

/** Age after which an idle login-throttle row is forgotten. */
export const THROTTLE_ROW_TTL_MS = 24 * 60 * 60_000;

/** One purge run. Usage: `const counts = await purgeExpired(db);` */
export async function purgeExpired(db: PrismaClient, now = new Date(), { knownAddressTtlMs = 30 * 86_400_000, auditRetentionMs = 90 * 86_400_000 }: PurgeOptions = {}): Promise<PurgeResult> {
  const expired = { expiresAt: { lte: now } };
  const staleBefore = new Date(now.getTime() - THROTTLE_ROW_TTL_MS);
  const [accessTokens, refreshTokens, authorizationCodes, records, loginThrottles, knownAddresses, auditEvents] = await Promise.all([
    db.accessToken.deleteMany({ where: expired }),
    db.refreshToken.deleteMany({ where: expired }),
    db.authorizationCode.deleteMany({ where: expired }),
    db.oidcRecord.deleteMany({ where: expired }),
    db.loginThrottle.deleteMany({
      where: { windowStart: { lte: staleBefore }, OR: [{ blockedUntil: null }, { blockedUntil: { lte: now } }] },
    }),
    db.loginKnownAddress.deleteMany({ where: { lastSuccessAt: { lte: new Date(now.getTime() - knownAddressTtlMs) } } }),
    db.auditEvent.deleteMany({ where: { at: { lt: new Date(now.getTime() - auditRetentionMs) } } }),
  ]);
  return {
    accessTokens: accessTokens.count,
    refreshTokens: refreshTokens.count,
    authorizationCodes: authorizationCodes.count,
    records: records.count,
    loginThrottles: loginThrottles.count,
    knownAddresses: knownAddresses.count,
    auditEvents: auditEvents.count,
  };
}

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
