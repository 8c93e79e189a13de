/**
 * Client secret verification without a slow hash per request: the first successful bcrypt compare of (client id, secret) is
 * remembered in memory; later requests with the same pair cost one HMAC.
 * The one cached verifier of the package: the provider uses it through
 * installSecretVerifier.
 *
 * Rules enforced here:
 * - the cache key is a fast keyed hash of `id + ':' + secret` (HMAC-SHA-256
 *   with a per-process random key, so memory never holds anything that can
 *   be checked offline against a guessed secret);
 * - the stored hash that was verified is part of the key: when the client's
 *   stored hash changes (rotate-secret, remove and re-add), no entry
 *   matches and the slow path runs again at once;
 * - only successes are cached; a wrong secret always pays the slow hash;
 * - concurrent requests with the same pair share one slow compare in
 *   flight (LRUCache.fetch): a burst of N requests before the first
 *   verification finishes costs one bcrypt compare, not N;
 * - an empty secret, a secret outside VSCHAR (RFC 6749 Appendix A.2; the
 *   CLI never registers one, so it is refused without the slow hash), a
 *   client without a stored hash, or a stored value that is not a bcrypt
 *   hash never matches.
 */
import crypto from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { verifyClientSecret } from '../clients/client-secret.ts';
import { isVschar } from '../clients/vschar.ts';
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

/**
 * Usage:
 *   const verify = createSecretVerifier({ max: 10_000, ttlMs: 600_000 });
 *   await verify('app', row.hashedSecret, presented);
 */
export function createSecretVerifier(options: SecretCacheOptions = {}): SecretVerifier & { readonly size: number } {
  const compare = options.compare ?? verifyClientSecret;
  const cache = new LRUCache<string, true, { secret: string; storedHash: string }>({
    max: options.max ?? DEFAULTS.secretCacheMax,
    ttl: options.ttlMs ?? DEFAULTS.secretCacheTtlMs,
    // undefined (a wrong secret, a failed compare) is not stored.
    fetchMethod: async (_key, _stale, { context }) =>
      (await compare(context.secret, context.storedHash).catch(() => false)) ? true : undefined,
  });
  const hmacKeyBytes = crypto.randomBytes(32);
  const verify = async function verifyClientSecretCached(clientId: string, storedHash: string | null | undefined, secret: string): Promise<boolean> {
    if (!storedHash || !secret || !isVschar(secret)) return false;
    const key = `${crypto.createHmac('sha256', hmacKeyBytes).update(`${clientId}:${secret}`).digest('base64url')}:${storedHash}`;
    return (await cache.fetch(key, { context: { secret, storedHash } })) === true;
  };
  return Object.defineProperty(verify, 'size', { get: () => cache.size }) as SecretVerifier & { readonly size: number };
}
