/**
 * Signing keys (JWKS) and cookie keys of the provider, from AUTH_KEYS_FILE.
 *
 * Rules enforced here:
 * - when the file is absent it is generated once (one RS256 signing key,
 *   two random cookie keys) by @heroes/db's secret-file writer (mode 0600,
 *   atomic: two processes starting together never read a half-written file);
 * - the library's development keys are never used;
 * - a file that exists but is unreadable or malformed is an error, never
 *   silently replaced (that would invalidate every signed artifact).
 */
import crypto from 'node:crypto';
import type { JWK } from 'oidc-provider';
import { readOrCreateSecretFile } from '@heroes/db';

export interface ProviderKeys {
  jwks: { keys: JWK[] };
  cookieKeys: string[];
}

/**
 * Usage:
 *   const { jwks, cookieKeys } = loadOrCreateKeys(config.keysFile);
 */
export function loadOrCreateKeys(file: string): ProviderKeys {
  const text = readOrCreateSecretFile(file, () => `${JSON.stringify(generateKeys(), null, 2)}\n`);
  const parsed = JSON.parse(text) as Partial<ProviderKeys>;
  if (!Array.isArray(parsed.jwks?.keys) || parsed.jwks.keys.length === 0 || !Array.isArray(parsed.cookieKeys) || parsed.cookieKeys.length === 0) {
    throw new Error(`${file} is not a valid keys file (expected { jwks: { keys: [...] }, cookieKeys: [...] })`);
  }
  return { jwks: parsed.jwks, cookieKeys: parsed.cookieKeys };
}

export function generateKeys(): ProviderKeys {
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' }) as JWK;
  const kid = crypto.randomBytes(12).toString('base64url');
  return {
    jwks: { keys: [{ ...jwk, kid, use: 'sig', alg: 'RS256' }] },
    cookieKeys: [crypto.randomBytes(32).toString('base64url'), crypto.randomBytes(32).toString('base64url')],
  };
}
