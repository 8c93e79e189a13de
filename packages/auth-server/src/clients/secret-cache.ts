/**
 * Client secret checks without a bcrypt compare per request: the first successful compare of (id, secret) is
 * remembered under an HMAC with a per-process key (nothing checkable offline) and the stored hash it matched, so a
 * rotation takes effect at once. Only successes are cached; concurrent checks of one pair share one compare; an empty
 * or non-VSCHAR secret, or no stored bcrypt hash, never matches.
 */
import crypto from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { QueueFullError } from '@heroes/http-kit';
import { verifyClientSecret } from './client-secret.ts';
import { isVschar } from './vschar.ts';
import { DEFAULTS } from '../config/defaults.ts';

export interface SecretCacheOptions {
  /** Most remembered verifications. Default DEFAULTS.secretCacheMax (10 000). */
  max?: number;
  /** Milliseconds a verification is remembered. Default DEFAULTS.secretCacheTtlMs (10 minutes). */
  ttlMs?: number;
  /** The slow comparison. Default verifyClientSecret (bcrypt); tests count calls through it. */
  compare?: (secret: string, hash: string) => Promise<boolean>;
}

/** True when `secret` is the client's secret; `storedHash` is its row's hashedSecret. */
export type SecretVerifier = (clientId: string, storedHash: string | null | undefined, secret: string) => Promise<boolean>;

/** The verifier, plus what it remembers (for the fast introspection path). */
export interface RememberedSecrets {
  /** True only when this (id, secret) pair was verified against `storedHash` and is still remembered: no slow hash, no wait. */
  remembered(clientId: string, storedHash: string, secret: string): boolean;
}

/**
 * Usage:
 *   const verify = createSecretVerifier({ max: 10_000, ttlMs: 600_000 });
 *   await verify('app', row.hashedSecret, presented);
 */
export function createSecretVerifier(options: SecretCacheOptions = {}): SecretVerifier & RememberedSecrets & { readonly size: number } {
  const compare = options.compare ?? verifyClientSecret;
  // Keyed by the pair and the stored hash it was checked against; the value
  // is only ever `true`: a failed compare returns undefined, which fetch()
  // does not keep. fetch() also coalesces concurrent calls for one key.
  const cache = new LRUCache<string, true, PendingCompare>({
    max: options.max ?? DEFAULTS.secretCacheMax,
    ttl: options.ttlMs ?? DEFAULTS.secretCacheTtlMs,
    // A full hash queue is no verdict on the secret: it reaches the caller (503), a failure to compare is a mismatch.
    fetchMethod: async (_key, _stale, { context }) =>
      ((await compare(context.secret, context.storedHash).catch((err: unknown) => {
        if (err instanceof QueueFullError) throw err;
        return false;
      })) ? true : undefined),
  });
  const hmacKey = crypto.randomBytes(32);
  const keyOf = (clientId: string, secret: string, storedHash: string) =>
    `${crypto.createHmac('sha256', hmacKey).update(`${clientId}:${secret}`).digest('base64url')}:${storedHash}`;
  const verify = async function verifyClientSecretCached(clientId: string, storedHash: string | null | undefined, secret: string): Promise<boolean> {
    if (!storedHash || !secret || !isVschar(secret)) return false;
    return (await cache.fetch(keyOf(clientId, secret, storedHash), { context: { secret, storedHash } })) === true;
  };
  const remembered = (clientId: string, storedHash: string, secret: string) =>
    storedHash !== '' && secret !== '' && isVschar(secret) && cache.get(keyOf(clientId, secret, storedHash)) === true;
  return Object.defineProperty(Object.assign(verify, { remembered }), 'size', { get: () => cache.size }) as SecretVerifier & RememberedSecrets & { readonly size: number };
}

/** What the slow compare of one cache key needs (not part of the key: the secret is never stored). */
interface PendingCompare {
  secret: string;
  storedHash: string;
}
