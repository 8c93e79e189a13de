/**
 * login_throttles and login_known_addresses, shared by every replica: fixed-window counters per key (failed logins,
 * registrations per address) and the login throttle's rows (its rules: auth-server's throttle/login-throttle.ts). A
 * window starts at its first count and lasts `windowMs`; every count, check-and-count and outcome is one atomic
 * INSERT … ON CONFLICT; the purge forgets rows whose window started over a day ago; `auth users unlock` clears an
 * account's rows (a Prisma typed query). Not rate-limiter-flexible's RateLimiterPostgres: it times windows by each
 * replica's clock and counts in a statement of its own (a round trip more).
 */
import type { Queryable } from '../sql-pool.ts';
import type { Transaction } from '../transactions.ts';

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
 * Milliseconds until a key may count again when its window already holds `limit` counts, as a scalar subquery
 * of the statement that checks it: `key`, `windowSeconds` and `limit` are its placeholders. NULL or ≤ 0: not blocked.
 */
function windowWaitSql(key: string, windowSeconds: string, limit: string): string {
  return `(SELECT (EXTRACT(EPOCH FROM (window_start + make_interval(secs => ${windowSeconds}::float8) - now())) * 1000)::float8
      FROM login_throttles WHERE key = ${key} AND failures >= ${limit}::int)`;
}

/** The numbers of the login throttle's rules (auth-server's throttle/login-throttle.ts). */
export interface ThrottleLimits {
  accountFailures: number;
  backoffMs: number;
  backoffMaxMs: number;
  addressFailures: number;
  addressWindowMs: number;
  /** How long a successful sign-in keeps its address known, ms (0: smart lockout off). */
  knownAddressTtlMs: number;
}

/** One attempt: its subject, its address bucket, and the keys of the counters it may be charged to. */
export interface AttemptKeys {
  subject: string;
  address: string;
  knownKey: string;
  addressKey: string;
}

/** What beginAttempt found: whether the address is known, how long its counter is blocked, whether it counted. */
export interface AttemptStanding {
  known: boolean;
  waitMs: number | null;
  counted: boolean;
}

/**
 * One statement per attempt: reads whether the address is known and how long its counter (or, for a stranger,
 * also the address window) is still blocked, and unless blocked counts the attempt as a failure on that counter.
 * The n-th attempt from the limit on blocks the counter for backoffMs × 2^(n − limit), at most backoffMaxMs. A
 * refused attempt writes nothing. The INSERT's ON CONFLICT check sees a block that a parallel attempt set after
 * this statement's snapshot: then no row is counted.
 */
export async function beginAttempt(db: Queryable, keys: AttemptKeys, limits: ThrottleLimits): Promise<AttemptStanding> {
  const { rows } = await db.query({
    name: 'login-throttle-begin',
    text: `WITH standing AS (
        SELECT known, CASE WHEN known THEN known_wait ELSE GREATEST(subject_wait, window_wait) END AS wait_ms
        FROM (SELECT
          $4::float8 > 0 AND EXISTS (SELECT 1 FROM login_known_addresses WHERE subject = $1 AND address = $2
            AND last_success_at > now() - make_interval(secs => $4::float8 / 1000)) AS known,
          (SELECT (EXTRACT(EPOCH FROM (blocked_until - now())) * 1000)::float8 FROM login_throttles WHERE key = $1) AS subject_wait,
          (SELECT (EXTRACT(EPOCH FROM (blocked_until - now())) * 1000)::float8 FROM login_throttles WHERE key = $3) AS known_wait,
          ${windowWaitSql('$5', '$6', '$7')} AS window_wait) AS reads),
      counted AS (
        INSERT INTO login_throttles (key, failures, window_start, blocked_until)
        SELECT CASE WHEN known THEN $3 ELSE $1 END, 1, now(),
          CASE WHEN 1 >= $8::int THEN now() + make_interval(secs => LEAST($9::float8, $10::float8) / 1000) END
        FROM standing WHERE COALESCE(wait_ms, 0) <= 0
        ON CONFLICT (key) DO UPDATE SET
          failures = login_throttles.failures + 1,
          blocked_until = CASE WHEN login_throttles.failures + 1 >= $8::int
            THEN now() + make_interval(secs => LEAST($9::float8,
              $10::float8 * power(2, LEAST(login_throttles.failures + 1 - $8::int, 30))) / 1000)
            END
        WHERE login_throttles.blocked_until IS NULL OR login_throttles.blocked_until <= now()
        RETURNING 1)
      SELECT known, wait_ms, EXISTS (SELECT 1 FROM counted) AS counted FROM standing`,
    values: [
      keys.subject, keys.address, keys.knownKey, limits.knownAddressTtlMs,
      keys.addressKey, limits.addressWindowMs / 1000, limits.addressFailures,
      limits.accountFailures, limits.backoffMaxMs, limits.backoffMs,
    ],
  });
  const row = rows[0] as { known: boolean; wait_ms: number | null; counted: boolean };
  return { known: row.known, waitMs: row.wait_ms, counted: row.counted };
}

/** Milliseconds the counter `key` is still blocked for (0: not blocked). */
export async function counterWaitMs(db: Queryable, key: string): Promise<number> {
  const { rows } = await db.query({
    name: 'login-throttle-check',
    text: 'SELECT (EXTRACT(EPOCH FROM (blocked_until - now())) * 1000)::float8 AS wait_ms FROM login_throttles WHERE key = $1',
    values: [key],
  });
  return Math.max(0, (rows[0]?.['wait_ms'] as number | null | undefined) ?? 0);
}

/** The counter `key` starts over. */
export async function clearCounter(db: Queryable, key: string): Promise<void> {
  await db.query({ name: 'login-throttle-succeeded', text: 'DELETE FROM login_throttles WHERE key = $1', values: [key] });
}

/**
 * A success from `address`, in one statement: the counter starts over, the address is (still) known, and only
 * the `keep` most recent known addresses stay. A known address's success time is rewritten only when older than
 * `refreshMs` (most logins come from a known address: no write and no dead row per login); the trim runs only
 * when a row was written. The statements of one WITH see the same snapshot: the trim keeps this address by name.
 */
export async function rememberSuccess(db: Queryable, success: { subject: string; address: string; counterKey: string; keep: number; refreshMs: number }): Promise<void> {
  await db.query({
    name: 'login-throttle-succeeded-known',
    text: `WITH cleared AS (DELETE FROM login_throttles WHERE key = $3),
      remembered AS (INSERT INTO login_known_addresses (subject, address, last_success_at) VALUES ($1, $2, now())
        ON CONFLICT (subject, address) DO UPDATE SET last_success_at = now()
        WHERE login_known_addresses.last_success_at <= now() - make_interval(secs => $5::float8 / 1000)
        RETURNING 1)
      DELETE FROM login_known_addresses WHERE EXISTS (SELECT 1 FROM remembered) AND subject = $1 AND address <> $2 AND address NOT IN (
        SELECT address FROM login_known_addresses WHERE subject = $1 AND address <> $2 ORDER BY last_success_at DESC LIMIT $4::int - 1)`,
    values: [success.subject, success.address, success.counterKey, success.keep, success.refreshMs],
  });
}

/** Deletes the account counter `subject` and its known-address rows (`known:<subject>:…`); answers how many went. */
export async function clearAccountCounters(db: Transaction, subject: string): Promise<number> {
  const { count } = await db.loginThrottle.deleteMany({ where: { OR: [{ key: subject }, { key: { startsWith: `known:${subject}:` } }] } });
  return count;
}
