/**
 * Fixed-window counters per key in the login_throttles table, shared by
 * every replica (PostgreSQL is the one place they all see): the
 * authorization server counts failed logins per client address with them,
 * the resource server counts registrations per client address.
 *
 * Rules enforced here:
 * - a window starts at the first count and lasts `windowMs`; the first
 *   count after it ends starts a new window at 1;
 * - each count is one atomic statement (INSERT … ON CONFLICT), so
 *   concurrent requests on several replicas are all counted;
 * - the auth server's purge timer forgets rows whose window started over a
 *   day ago (windows longer than that are not supported).
 *
 * Usage:
 *   const { count, resetInMs } = await countInWindow(db, `register:${ip}`, 900_000);
 *   const waitMs = await windowWaitMs(db, `address:${ip}`, 100, 900_000); // 0 when under the limit
 */
import type { Prisma } from './generated/client.ts';

/** A PrismaClient or a transaction client. */
type SqlRunner = Pick<Prisma.TransactionClient, '$queryRaw'>;

export interface WindowCount {
  /** Counts in the current window, this one included. */
  count: number;
  /** Milliseconds until the current window ends (≥ 0). */
  resetInMs: number;
}

/** Adds one to `key`'s window (a new window when the last one ended). */
export async function countInWindow(db: SqlRunner, key: string, windowMs: number): Promise<WindowCount> {
  const window = windowMs / 1000;
  const rows = await db.$queryRaw<Array<{ failures: number; reset_ms: number }>>`
    INSERT INTO login_throttles (key, failures, window_start) VALUES (${key}, 1, now())
    ON CONFLICT (key) DO UPDATE SET
      failures = CASE WHEN login_throttles.window_start <= now() - make_interval(secs => ${window}::float8)
        THEN 1 ELSE login_throttles.failures + 1 END,
      window_start = CASE WHEN login_throttles.window_start <= now() - make_interval(secs => ${window}::float8)
        THEN now() ELSE login_throttles.window_start END
    RETURNING failures,
      GREATEST(0, EXTRACT(EPOCH FROM (window_start + make_interval(secs => ${window}::float8) - now())) * 1000)::float8 AS reset_ms`;
  const row = rows[0]!;
  return { count: Number(row.failures), resetInMs: row.reset_ms };
}

/** Milliseconds until `key` may count again when its window already holds `limit` counts; else 0. */
export async function windowWaitMs(db: SqlRunner, key: string, limit: number, windowMs: number): Promise<number> {
  const rows = await db.$queryRaw<Array<{ wait_ms: number }>>`
    SELECT (EXTRACT(EPOCH FROM (window_start + make_interval(secs => ${windowMs / 1000}::float8) - now())) * 1000)::float8 AS wait_ms
    FROM login_throttles WHERE key = ${key} AND failures >= ${limit}`;
  return Math.max(0, rows[0]?.wait_ms ?? 0);
}
