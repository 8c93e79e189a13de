/**
 * Client authentication without a bcrypt compare on every request
 * (issue 4, point 9): a successful slow verification is remembered in
 * memory, keyed by a fast hash of the client id, the stored hash and the
 * presented secret.
 *
 * Rules enforced here:
 * - only successes are cached, so a wrong secret always pays the slow hash;
 * - the stored hash is part of the key: after `rotate-secret` (or
 *   `remove-client` and re-adding the id) the old secret no longer hits;
 * - the key is an HMAC with a per-process random key, so the cache never
 *   holds a secret or anything that can be checked offline against one.
 */
import crypto from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { verifyClientSecret } from './client-secret.ts';

export interface ClientSecretVerifierOptions {
  /** Most remembered verifications. Default 10 000. */
  max?: number;
  /** Milliseconds a verification is remembered. Default 10 minutes. */
  ttlMs?: number;
}

export type ClientSecretVerifier = (
  client: { id: string; hashedSecret: string | null },
  secret: string,
) => Promise<boolean>;

/**
 * Usage:
 *   const verify = createClientSecretVerifier();
 *   if (!(await verify(clientRow, presentedSecret))) throw new InvalidClient();
 */
export function createClientSecretVerifier(options: ClientSecretVerifierOptions = {}): ClientSecretVerifier {
  const cache = new LRUCache<string, true>({ max: options.max ?? 10_000, ttl: options.ttlMs ?? 10 * 60_000 });
  const hmacKey = crypto.randomBytes(32);
  return async function verifyClientSecretCached(client, secret) {
    if (client.hashedSecret === null || secret === '') return false;
    const key = crypto
      .createHmac('sha256', hmacKey)
      .update(`${client.id}\0${client.hashedSecret}\0${secret}`)
      .digest('base64url');
    if (cache.get(key)) return true;
    const ok = await verifyClientSecret(secret, client.hashedSecret);
    if (ok) cache.set(key, true);
    return ok;
  };
}
