/**
 * Brute-force protection of every password check (password grant and login
 * form alike), counted in PostgreSQL so that every replica sees the same
 * counts (table login_throttles).
 *
 * Rules enforced here:
 * - an account (key `account:<sha256 of the username>`, whether the user exists or not,
 *   so the answer does not reveal which do) with `accountFailures`
 *   consecutive failures is refused for a back-off that starts at
 *   `backoffMs` and doubles with each further failure up to `backoffMaxMs`:
 *   temporary, so an attacker cannot lock a user out for long;
 * - a client address (key `address:<ip>`) with `addressFailures` failures
 *   within `addressWindowMs` is refused until that window ends (the
 *   window counter is @heroes/db's address-window.ts, shared with /register);
 * - a refused attempt checks no password (no bcrypt work) and is not
 *   counted; a success deletes the account's count (not the address's: a
 *   guesser must not reset it with an account of its own);
 * - each update is one atomic statement (INSERT … ON CONFLICT), so
 *   concurrent guesses on several replicas are all counted.
 *
 * Usage:
 *   const throttle = createLoginThrottle(db, limits);
 *   const refusal = await throttle.check(username, address); // { retryAfterSeconds } or undefined
 *   ok ? await throttle.succeeded(username) : await throttle.failed(username, address);
 */
import { createHash } from 'node:crypto';
import { countInWindow, sqlPool, windowWaitMs, type PrismaClient } from '@heroes/db';

export interface LoginLimits {
  accountFailures: number;
  backoffMs: number;
  backoffMaxMs: number;
  addressFailures: number;
  addressWindowMs: number;
}

export interface Refusal {
  /** Whole seconds until the next attempt may be checked (≥ 1): `Retry-After`. */
  retryAfterSeconds: number;
}

export interface LoginThrottle {
  check(username: string, address: string): Promise<Refusal | undefined>;
  failed(username: string, address: string): Promise<void>;
  succeeded(username: string): Promise<void>;
}

/** A digest, so any username (long, NUL, lone surrogate) makes a short storable key. */
const accountKey = (username: string) => `account:${createHash('sha256').update(username).digest('base64url')}`;
const addressKey = (address: string) => `address:${address}`;

export function createLoginThrottle(db: PrismaClient, limits: LoginLimits): LoginThrottle {
  // Prepared statements on the pool: every login checks, and most succeed.
  const pool = sqlPool(db);
  return {
    async check(username, address) {
      const [account, addressWaitMs] = await Promise.all([
        pool.query<{ wait_ms: number | null }>({
          name: 'login-throttle-check',
          text: 'SELECT (EXTRACT(EPOCH FROM (blocked_until - now())) * 1000)::float8 AS wait_ms FROM login_throttles WHERE key = $1',
          values: [accountKey(username)],
        }),
        windowWaitMs(pool, addressKey(address), limits.addressFailures, limits.addressWindowMs),
      ]);
      const waitMs = Math.max(0, account.rows[0]?.wait_ms ?? 0, addressWaitMs);
      return waitMs > 0 ? { retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) } : undefined;
    },

    async failed(username, address) {
      // The n-th consecutive failure from the limit on blocks for backoffMs × 2^(n − limit), at most backoffMaxMs.
      await pool.query({
        name: 'login-throttle-failed',
        text: `INSERT INTO login_throttles (key, failures, window_start, blocked_until)
          VALUES ($1, 1, now(), CASE WHEN 1 >= $2::int THEN now() + make_interval(secs => LEAST($3::float8, $4::float8) / 1000) END)
          ON CONFLICT (key) DO UPDATE SET
            failures = login_throttles.failures + 1,
            blocked_until = CASE WHEN login_throttles.failures + 1 >= $2::int
              THEN now() + make_interval(secs => LEAST($3::float8,
                $4::float8 * power(2, LEAST(login_throttles.failures + 1 - $2::int, 30))) / 1000)
              END`,
        values: [accountKey(username), limits.accountFailures, limits.backoffMaxMs, limits.backoffMs],
      });
      await countInWindow(pool, addressKey(address), limits.addressWindowMs);
    },

    async succeeded(username) {
      await pool.query({ name: 'login-throttle-succeeded', text: 'DELETE FROM login_throttles WHERE key = $1', values: [accountKey(username)] });
    },
  };
}
