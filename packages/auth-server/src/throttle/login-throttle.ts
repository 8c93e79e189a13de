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
import { countInWindow, windowWaitMs, type PrismaClient } from '@heroes/db';

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
  /** Milliseconds the account is still blocked for (0: not blocked). */
  async function accountWait(username: string): Promise<number> {
    const rows = await db.$queryRaw<Array<{ wait_ms: number | null }>>`
      SELECT (EXTRACT(EPOCH FROM (blocked_until - now())) * 1000)::float8 AS wait_ms
      FROM login_throttles WHERE key = ${accountKey(username)}`;
    return Math.max(0, rows[0]?.wait_ms ?? 0);
  }

  return {
    async begin(username, address) {
      // A refused attempt (the steady state of an attack) costs these two reads only.
      const [addressWaitMs, accountWaitMs] = await Promise.all([
        windowWaitMs(db, addressKey(address), limits.addressFailures, limits.addressWindowMs),
        accountWait(username),
      ]);
      if (addressWaitMs > 0 || accountWaitMs > 0) return refusal(Math.max(addressWaitMs, accountWaitMs));
      const counted = await db.$queryRaw<Array<{ failures: number }>>`
        INSERT INTO login_throttles (key, failures, window_start, blocked_until)
        VALUES (${accountKey(username)}, 1, now(), ${blockAfter(1, limits)})
        ON CONFLICT (key) DO UPDATE SET
          failures = login_throttles.failures + 1,
          blocked_until = CASE WHEN login_throttles.failures + 1 >= ${limits.accountFailures}
            THEN now() + make_interval(secs => LEAST(${limits.backoffMaxMs}::float8,
              ${limits.backoffMs}::float8 * power(2, LEAST(login_throttles.failures + 1 - ${limits.accountFailures}, 30))) / 1000)
            END
        WHERE login_throttles.blocked_until IS NULL OR login_throttles.blocked_until <= now()
        RETURNING failures`;
      // No row: a parallel attempt set the block between the read and this statement.
      return counted.length > 0 ? undefined : refusal(Math.max(1, await accountWait(username)));
    },

    async failed(address) {
      await countInWindow(db, addressKey(address), limits.addressWindowMs);
    },

    async succeeded(username) {
      await db.$executeRaw`DELETE FROM login_throttles WHERE key = ${accountKey(username)}`;
    },
  };
}

function refusal(waitMs: number): Refusal {
  return { retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
}

/** blocked_until of a first failure: only when one failure is already the limit. */
function blockAfter(failures: number, limits: LoginLimits): Date | null {
  return failures >= limits.accountFailures ? new Date(Date.now() + Math.min(limits.backoffMs, limits.backoffMaxMs)) : null;
}
