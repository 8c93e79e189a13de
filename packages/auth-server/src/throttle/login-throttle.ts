/**
 * Brute-force protection of every credential check (passwords, client secrets), counted in PostgreSQL for every replica
 * and built so a stranger cannot lock the owner out (docs/oauth.md, "Lockout"): from a known address (a recent success)
 * an attempt counts only on its own counter, from any other on the subject's and the address's; failures back off,
 * doubling to `backoffMaxMs`. Counted in the statement that checks the block; a refusal checks no credential.
 */
import { usernameKey } from '@heroes/text-rules/username';
import { createHash } from 'node:crypto';
import { beginAttempt, clearCounter, counterWaitMs, countInWindow, rememberSuccess, sqlPool, unrecorded, type PrismaClient, type RecordWith, type ThrottleLimits } from '@heroes/db';
import { addressBucket } from '@heroes/platform';

export interface LoginLimits extends ThrottleLimits {
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
function knownAddressRefreshMs(knownAddressTtlMs: number): number {
  return Math.min(86_400_000, knownAddressTtlMs / 30);
}

function refusal(waitMs: number): Refusal {
  return { retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)), waitMs };
}
