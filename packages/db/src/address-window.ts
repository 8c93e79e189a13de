/**
 * Fixed-window counters per key in login_throttles, shared by every replica (failed logins per address, registrations
 * per address): a window starts at the first count and lasts `windowMs`, the first count after it starts anew; each
 * count is one atomic INSERT … ON CONFLICT; the purge forgets rows started over a day ago (no longer windows).
 * Usage: const { count, resetInMs } = await countInWindow(pool, `register:${ip}`, 900_000)
 */

/** A pg Pool or Client (for a PrismaClient: its pool, `sqlPool(db)`). */
export interface Queryable {
  query(config: { name?: string; text: string; values: unknown[] }): Promise<{ rows: Array<{ [column: string]: unknown }> }>;
}

export interface WindowCount {
  /** Counts in the current window, this one included. */
  count: number;
  /** Milliseconds until the current window ends (≥ 0). */
  resetInMs: number;
}

/** Adds one to `key`'s window (a new window when the last one ended). */
export async function countInWindow(db: Queryable, key: string, windowMs: number): Promise<WindowCount> {
  const { rows } = await db.query({
    name: 'window-count',
    text: `INSERT INTO login_throttles (key, failures, window_start) VALUES ($1, 1, now())
      ON CONFLICT (key) DO UPDATE SET
        failures = CASE WHEN login_throttles.window_start <= now() - make_interval(secs => $2::float8)
          THEN 1 ELSE login_throttles.failures + 1 END,
        window_start = CASE WHEN login_throttles.window_start <= now() - make_interval(secs => $2::float8)
          THEN now() ELSE login_throttles.window_start END
      RETURNING failures,
        GREATEST(0, EXTRACT(EPOCH FROM (window_start + make_interval(secs => $2::float8) - now())) * 1000)::float8 AS reset_ms`,
    values: [key, windowMs / 1000],
  });
  const row = rows[0] as { failures: number; reset_ms: number };
  return { count: Number(row.failures), resetInMs: row.reset_ms };
}

/**
 * Milliseconds until a key may count again when its window already holds
 * `limit` counts, as a scalar SQL subquery for the statement that checks it
 * (the login throttle reads it with its other checks in one statement):
 * `key`, `windowSeconds` and `limit` are that statement's placeholders
 * (e.g. `'$5'`). NULL or ≤ 0: not blocked.
 */
export function windowWaitSql(key: string, windowSeconds: string, limit: string): string {
  return `(SELECT (EXTRACT(EPOCH FROM (window_start + make_interval(secs => ${windowSeconds}::float8) - now())) * 1000)::float8
      FROM login_throttles WHERE key = ${key} AND failures >= ${limit}::int)`;
}
