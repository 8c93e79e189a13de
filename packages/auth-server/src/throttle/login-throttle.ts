/**
 * Brute-force protection of every credential check (passwords, client secrets), counted in PostgreSQL for every replica
 * and built so a stranger cannot lock the owner out (docs/oauth.md, "Lockout"): from a known address (a recent success)
 * an attempt counts only on its own counter, from any other on the subject's and the address's; failures back off,
 * doubling to `backoffMaxMs`. Counted in the statement that checks the block; a refusal checks no credential.
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
