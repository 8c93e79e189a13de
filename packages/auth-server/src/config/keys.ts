/**
 * Signing keys (JWKS) and cookie keys of the provider, from AUTH_KEYS_FILE.
 *
 * Rules enforced here:
 * - when the file is absent it is generated once (one RS256 signing key,
 *   two random cookie keys) and written with mode 0600, atomically (write
 *   to a temporary file, then rename), so two processes starting together
 *   never read a half-written file;
 * - the library's development keys are never used;
 * - a file that exists but is unreadable or malformed is an error, never
 *   silently replaced (that would invalidate every signed artifact).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { JWK } from 'oidc-provider';

export interface ProviderKeys {
  jwks: { keys: JWK[] };
  cookieKeys: string[];
}

/**
 * Usage:
 *   const { jwks, cookieKeys } = loadOrCreateKeys(config.keysFile);
 */
export function loadOrCreateKeys(file: string): ProviderKeys {
  if (!fs.existsSync(file)) writeKeys(file, generateKeys());
  const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<ProviderKeys>;
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

function writeKeys(file: string, keys: ProviderKeys): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  try {
    // link fails when another process created the file first: keep theirs.
    fs.linkSync(temp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}
