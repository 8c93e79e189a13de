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
 *   ends (the window counter is @heroes/db's repositories/login-throttles.ts, shared with
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
import { beginAttempt, clearCounter, counterWaitMs, countInWindow, rememberSuccess, sqlPool, unrecorded, type PrismaClient, type RecordWith } from '@heroes/db';
import { addressBucket } from '@heroes/platform';

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


export function isRefusal(admission: Refusal | Attempt): admission is Refusal {
  return 'retryAfterSeconds' in admission;
}

export function createLoginThrottle(db: PrismaClient, limits: LoginLimits): LoginThrottle {
  const pool = sqlPool(db);
  const keep = limits.knownAddressesPerSubject ?? 10;

  return {
    async begin(subject, clientAddress) {
      const address = addressBucket(clientAddress);
      const keys = { subject, address, knownKey: knownKey(subject, address), addressKey: addressKey(address) };
      // One statement per attempt (every login pays it): the check and, unless blocked, the count.
      const { known, waitMs, counted } = await beginAttempt(pool, keys, limits);
      const counterKey = known ? keys.knownKey : subject;
      if (counted) return { subject, address, counterKey };
      if (waitMs !== null && waitMs > 0) return refusal(waitMs);
      return refusal(Math.max(1, await counterWaitMs(pool, counterKey))); // a parallel attempt set the block meanwhile
    },

    async failed(attempt, record = unrecorded) {
      await countInWindow(record(pool), addressKey(attempt.address), limits.addressWindowMs);
    },

    async succeeded({ subject, address, counterKey }, record = unrecorded) {
      if (limits.knownAddressTtlMs <= 0) return clearCounter(record(pool), counterKey);
      await rememberSuccess(record(pool), { subject, address, counterKey, keep, refreshMs: knownAddressRefreshMs(limits.knownAddressTtlMs) });
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
  return { retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
}
