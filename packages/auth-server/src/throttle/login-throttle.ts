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
 * - an attempt on an account is counted as a failure when it starts, in
 *   the same atomic statement that checks the block (INSERT … ON CONFLICT
 *   … WHERE not blocked): parallel guesses cannot all pass the check before
 *   any is counted, so at most `accountFailures` passwords are checked
 *   before the block, and one per back-off after it; a success then
 *   deletes the account's count;
 * - the address count grows on failures only (a success does not reset it:
 *   a guesser must not reset it with an account of its own);
 * - a refused attempt checks no password (no bcrypt work) and counts nothing;
 * - each update is one atomic statement, so concurrent guesses on several
 *   replicas are all counted.
 *
 * Usage:
 *   const throttle = createLoginThrottle(db, limits);
 *   const refusal = await throttle.begin(username, address); // { retryAfterSeconds } or undefined
 *   ok ? await throttle.succeeded(username) : await throttle.failed(address);
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
  /** A refusal, or undefined: the attempt may check the password (and is counted against the account). */
  begin(username: string, address: string): Promise<Refusal | undefined>;
  /** The password was wrong: counted against the client address. */
  failed(address: string): Promise<void>;
  /** The password was right: the account's count starts over. */
  succeeded(username: string): Promise<void>;
}

/** A digest, so any username (long, NUL, lone surrogate) makes a short storable key. */
const accountKey = (username: string) => `account:${createHash('sha256').update(username).digest('base64url')}`;
const addressKey = (address: string) => `address:${address}`;

export function createLoginThrottle(db: PrismaClient, limits: LoginLimits): LoginThrottle {
  // Prepared statements on the pool: every login checks, and most succeed.
  const pool = sqlPool(db);

  /** Milliseconds the account is still blocked for (0: not blocked). */
  async function accountWait(username: string): Promise<number> {
    const { rows } = await pool.query<{ wait_ms: number | null }>({
      name: 'login-throttle-check',
      text: 'SELECT (EXTRACT(EPOCH FROM (blocked_until - now())) * 1000)::float8 AS wait_ms FROM login_throttles WHERE key = $1',
      values: [accountKey(username)],
    });
    return Math.max(0, rows[0]?.wait_ms ?? 0);
  }

  return {
    async begin(username, address) {
      // A refused attempt (the steady state of an attack) costs these two reads only.
      const [addressWaitMs, accountWaitMs] = await Promise.all([
        windowWaitMs(pool, addressKey(address), limits.addressFailures, limits.addressWindowMs),
        accountWait(username),
      ]);
      if (addressWaitMs > 0 || accountWaitMs > 0) return refusal(Math.max(addressWaitMs, accountWaitMs));
      // Counted as a failure now, unless a parallel attempt set the block meanwhile (then no row).
      // The n-th attempt from the limit on blocks for backoffMs × 2^(n − limit), at most backoffMaxMs.
      const counted = await pool.query({
        name: 'login-throttle-begin',
        text: `INSERT INTO login_throttles (key, failures, window_start, blocked_until)
          VALUES ($1, 1, now(), CASE WHEN 1 >= $2::int THEN now() + make_interval(secs => LEAST($3::float8, $4::float8) / 1000) END)
          ON CONFLICT (key) DO UPDATE SET
            failures = login_throttles.failures + 1,
            blocked_until = CASE WHEN login_throttles.failures + 1 >= $2::int
              THEN now() + make_interval(secs => LEAST($3::float8,
                $4::float8 * power(2, LEAST(login_throttles.failures + 1 - $2::int, 30))) / 1000)
              END
          WHERE login_throttles.blocked_until IS NULL OR login_throttles.blocked_until <= now()
          RETURNING failures`,
        values: [accountKey(username), limits.accountFailures, limits.backoffMaxMs, limits.backoffMs],
      });
      return counted.rows.length > 0 ? undefined : refusal(Math.max(1, await accountWait(username)));
    },

    async failed(address) {
      await countInWindow(pool, addressKey(address), limits.addressWindowMs);
    },

    async succeeded(username) {
      await pool.query({ name: 'login-throttle-succeeded', text: 'DELETE FROM login_throttles WHERE key = $1', values: [accountKey(username)] });
    },
  };
}

function refusal(waitMs: number): Refusal {
  return { retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
}
