/**
 * Brute-force protection of every credential check (a user's password at
 * the password grant and the login form, a client's secret at any
 * endpoint), counted in PostgreSQL so that every replica sees the same
 * counts (tables login_throttles and login_known_addresses), and built so
 * that a stranger cannot turn it against the owner ("smart lockout").
 *
 * A subject is an account (`account:<sha256 of the username>`, whether the
 * user exists or not, so the answer does not reveal which do) or a client
 * (`client:<sha256 of the client id>`).
 *
 * Rules enforced here:
 * - a known address of a subject is one it signed in from successfully
 *   within `knownAddressTtlMs` (the `knownAddressesPerSubject` most
 *   recent are kept; a success rewrites a known address's time only when
 *   it is older than knownAddressRefreshMs, a thirtieth of the TTL, at
 *   most a day, so it may lapse that much early). An attempt from a
 *   known address is counted on that (subject, address) pair's own
 *   counter (`known:<subject>:<address>`)
 *   and nowhere else: failures from other addresses, however many, never
 *   delay it, and the per-address window does not refuse it;
 * - an attempt from any other address (a stranger, or the owner on a new
 *   network) is counted on the subject's shared counter and checked
 *   against the address's window;
 * - a counter with `accountFailures` consecutive failures refuses for a
 *   back-off that starts at `backoffMs` and doubles with each further
 *   failure up to `backoffMaxMs`; a success deletes the counter it was
 *   counted on (a success from a known address leaves the strangers'
 *   counter alone: the owner signing in does not hand the guessers a fresh
 *   budget);
 * - so the longest strangers can keep the owner out: not at all from a
 *   known address; from a new address, while they keep guessing and
 *   `backoffMaxMs` after (docs/oauth.md, "Lockout");
 * - a client address (key `address:<ip>`) with `addressFailures` failures
 *   within `addressWindowMs` (any subjects) is refused until that window
 *   ends (the window counter is @heroes/db's address-window.ts, shared with
 *   /register);
 * - an attempt is counted as a failure when it starts, in the same atomic
 *   statement that checks the block (INSERT … ON CONFLICT … WHERE not
 *   blocked): parallel guesses cannot all pass the check before any is
 *   counted, so at most `accountFailures` credentials are checked before
 *   the block, and one per back-off after it;
 * - the address count grows on failures only (a success does not reset it:
 *   a guesser must not reset it with an account of its own);
 * - a refused attempt checks no credential (no bcrypt work) and counts
 *   nothing; every attempt, admitted or refused, costs one statement to
 *   begin, and one more to record its outcome;
 * - an address is counted by its bucket (address-bucket.ts): IPv4 as it
 *   is, IPv6 by its /64, for the address window and known addresses alike;
 * - rows stay bounded: strangers add one row per subject and one per
 *   address (never one per (subject, address)); known addresses and their
 *   counters exist only after a success, at most `knownAddressesPerSubject`
 *   per subject; the purge timer (adapter/purge-expired.ts) forgets idle rows.
 *
 * Usage:
 *   const throttle = createLoginThrottle(db, limits);
 *   const admission = await throttle.begin(accountSubject('bob'), '203.0.113.7');
 *   if ('retryAfterSeconds' in admission) refuse(admission.retryAfterSeconds);
 *   else ok ? await throttle.succeeded(admission) : await throttle.failed(admission);
 */
import { usernameKey } from '@heroes/text-rules/username';
import { createHash } from 'node:crypto';
import { countInWindow, sqlPool, windowWaitSql, type PrismaClient } from '@heroes/db';
import { addressBucket } from '@heroes/platform';
import type { RecordWith } from '../audit/audit-trail.ts';

export interface LoginLimits {
  accountFailures: number;
  backoffMs: number;
  backoffMaxMs: number;
  addressFailures: number;
  addressWindowMs: number;
  /** How long a successful sign-in keeps its address known, ms (0: smart lockout off). */
  knownAddressTtlMs: number;
  /** Known addresses kept per subject (the most recent). Default 10. */
  knownAddressesPerSubject?: number;
}

export interface Refusal {
  /** Whole seconds until the next attempt may be checked (≥ 1): `Retry-After`. */
  retryAfterSeconds: number;
  /** Milliseconds the same attempt (subject, address) stays refused, as the database counted them. */
  waitMs: number;
}

/** An attempt the throttle let through, and the counter it was charged to. */
export interface Attempt {
  readonly subject: string;
  readonly address: string;
  readonly counterKey: string;
}

export interface LoginThrottle {
  /** A refusal, or the admitted attempt (already counted as a failure on its counter). */
  begin(subject: string, address: string): Promise<Refusal | Attempt>;
  /** The credential was wrong: counted against the client address too (`record`: the audit event rides on that statement). */
  failed(attempt: Attempt, record?: RecordWith): Promise<void>;
  /** The credential was right: its counter starts over, and the address is known (`record` as for failed). */
  succeeded(attempt: Attempt, record?: RecordWith): Promise<void>;
}

const digest = (text: string) => createHash('sha256').update(text).digest('base64url');
/**
 * A digest, so any username (long, NUL, lone surrogate) makes a short storable key; of the
 * name's key (@heroes/text-rules usernameKey) when it has one, so every spelling of an
 * account's name (`Alice`, `ALICE`) counts on its one budget.
 */
export const accountSubject = (username: string) => `account:${digest(usernameKey(username) ?? username)}`;
export const clientSubject = (clientId: string) => `client:${digest(clientId)}`;
const addressKey = (address: string) => `address:${address}`;
const knownKey = (subject: string, address: string) => `known:${subject}:${address}`;

const unrecorded: RecordWith = (db) => db;

export function isRefusal(admission: Refusal | Attempt): admission is Refusal {
  return 'retryAfterSeconds' in admission;
}

export function createLoginThrottle(db: PrismaClient, limits: LoginLimits): LoginThrottle {
  // Plain statements on the one pool (sql-pool.ts): every login checks, and most succeed.
  const pool = sqlPool(db);
  const keep = limits.knownAddressesPerSubject ?? 10;

  /** Milliseconds the counter is still blocked for (0: not blocked). */
  async function counterWait(key: string): Promise<number> {
    const { rows } = await pool.query<{ wait_ms: number | null }>({
      name: 'login-throttle-check',
      text: 'SELECT (EXTRACT(EPOCH FROM (blocked_until - now())) * 1000)::float8 AS wait_ms FROM login_throttles WHERE key = $1',
      values: [key],
    });
    return Math.max(0, rows[0]?.wait_ms ?? 0);
  }

  return {
    async begin(subject, clientAddress) {
      const address = addressBucket(clientAddress);
      const counterKeys = { stranger: subject, known: knownKey(subject, address) };
      // One statement per attempt (every login pays it): read whether the address is known and
      // how long its counter (or, for a stranger, also the address window) is still blocked, and
      // unless blocked count the attempt as a failure on that counter. The n-th attempt from the
      // limit on blocks the counter for backoffMs × 2^(n − limit), at most backoffMaxMs. A refused
      // attempt (the steady state of an attack) writes nothing. The INSERT's ON CONFLICT check
      // sees a block that a parallel attempt set after this statement's snapshot: then no row.
      const { rows } = await pool.query<{ known: boolean; wait_ms: number | null; counted: boolean }>({
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
          subject, address, counterKeys.known, limits.knownAddressTtlMs,
          addressKey(address), limits.addressWindowMs / 1000, limits.addressFailures,
          limits.accountFailures, limits.backoffMaxMs, limits.backoffMs,
        ],
      });
      const { known, wait_ms: waitMs, counted } = rows[0]!;
      const counterKey = known ? counterKeys.known : counterKeys.stranger;
      if (counted) return { subject, address, counterKey };
      if (waitMs !== null && waitMs > 0) return refusal(waitMs);
      return refusal(Math.max(1, await counterWait(counterKey))); // a parallel attempt set the block meanwhile
    },

    async failed(attempt, record = unrecorded) {
      await countInWindow(record(pool), addressKey(attempt.address), limits.addressWindowMs);
    },

    async succeeded({ subject, address, counterKey }, record = unrecorded) {
      if (limits.knownAddressTtlMs <= 0) {
        await record(pool).query({ name: 'login-throttle-succeeded', text: 'DELETE FROM login_throttles WHERE key = $1', values: [counterKey] });
        return;
      }
      // One statement: the counter starts over, the address is (still) known, and only the most
      // recent few known addresses stay (a subject signing in from ever new ones cannot grow the
      // table). A known address's success time is rewritten only when it is older than
      // knownAddressRefreshMs: most logins come from a known address, and rewriting the row on
      // each was a write (and a dead row) per login for nothing; the trim runs only when a row
      // was written. The statements of one WITH see the same snapshot: the trim keeps this
      // address by name.
      await record(pool).query({
        name: 'login-throttle-succeeded-known',
        text: `WITH cleared AS (DELETE FROM login_throttles WHERE key = $3),
          remembered AS (INSERT INTO login_known_addresses (subject, address, last_success_at) VALUES ($1, $2, now())
            ON CONFLICT (subject, address) DO UPDATE SET last_success_at = now()
            WHERE login_known_addresses.last_success_at <= now() - make_interval(secs => $5::float8 / 1000)
            RETURNING 1)
          DELETE FROM login_known_addresses WHERE EXISTS (SELECT 1 FROM remembered) AND subject = $1 AND address <> $2 AND address NOT IN (
            SELECT address FROM login_known_addresses WHERE subject = $1 AND address <> $2 ORDER BY last_success_at DESC LIMIT $4::int - 1)`,
        values: [subject, address, counterKey, keep, knownAddressRefreshMs(limits.knownAddressTtlMs)],
      });
    },
  };
}

/**
 * How stale a known address's success time may get before a success rewrites
 * it: a thirtieth of the time it stays known, at most a day (30 days: once a
 * day). So an address stays known at least 29/30 of knownAddressTtlMs after
 * its last success, and exactly that long after the success that made it known.
 */
export function knownAddressRefreshMs(knownAddressTtlMs: number): number {
  return Math.min(86_400_000, knownAddressTtlMs / 30);
}

function refusal(waitMs: number): Refusal {
  return { retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)), waitMs };
}
