/**
 * Signing and cookie keys of the provider, from AUTH_KEYS_FILE: generated once when absent (one RS256 key, two
 * cookie keys; mode 0600, atomic), never the library's development keys; an unreadable file is an error, never
 * replaced. Rotation puts a new signing key first and records when each earlier one retired; a retired key stays
 * published until all it signed expired (SIGNED_LIFETIME_MS), then leaves at the next rotation.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { JWK } from 'oidc-provider';
import { readOrCreateSecretFile } from '@heroes/platform/local-state';
import { DEFAULTS } from './defaults.ts';

export interface ProviderKeys {
  /** The first key signs; the others only verify what they signed before. */
  jwks: { keys: JWK[] };
  cookieKeys: string[];
  /** kid → when that key stopped signing (ISO 8601). */
  retired?: Record<string, string>;
}

/** How long what a key signed stays valid: a retired key is published this long after it stopped signing. */
export const SIGNED_LIFETIME_MS = DEFAULTS.idTokenTtl * 1000;

/**
 * Usage:
 *   const { jwks, cookieKeys } = loadOrCreateKeys(config.keysFile);
 */
export function loadOrCreateKeys(file: string): ProviderKeys {
  return parseKeys(readOrCreateSecretFile(file, () => keysText(generateKeys())), file);
}

/** The keys file's text → ProviderKeys; an Error naming `file` when it is not one. */
export function parseKeys(text: string, file: string): ProviderKeys {
  let parsed: Partial<ProviderKeys>;
  try {
    parsed = JSON.parse(text) as Partial<ProviderKeys>;
  } catch {
    throw new Error(`${file} is not valid JSON`);
  }
  if (!Array.isArray(parsed.jwks?.keys) || parsed.jwks.keys.length === 0 || !Array.isArray(parsed.cookieKeys) || parsed.cookieKeys.length === 0) {
    throw new Error(`${file} is not a valid keys file (expected { jwks: { keys: [...] }, cookieKeys: [...] })`);
  }
  const retired = typeof parsed.retired === 'object' && parsed.retired !== null ? parsed.retired : undefined;
  return { jwks: parsed.jwks, cookieKeys: parsed.cookieKeys, ...(retired ? { retired } : {}) };
}

function keysText(keys: ProviderKeys): string {
  return `${JSON.stringify(keys, null, 2)}\n`;
}

export function generateKeys(): ProviderKeys {
  return {
    jwks: { keys: [newSigningKey()] },
    cookieKeys: [crypto.randomBytes(32).toString('base64url'), crypto.randomBytes(32).toString('base64url')],
  };
}

function newSigningKey(): JWK {
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' }) as JWK;
  return { ...jwk, kid: crypto.randomBytes(12).toString('base64url'), use: 'sig', alg: 'RS256' };
}

/** The signing key: the first. */
export function activeKid(keys: ProviderKeys): string | undefined {
  return keys.jwks.keys[0]?.kid;
}

/** The keys to publish and verify with at `now`: the active one, and each retired one whose signatures may still be alive. */
export function publishedKeys(keys: ProviderKeys, now = Date.now()): { keys: JWK[] } {
  const [active, ...earlier] = keys.jwks.keys;
  return { keys: [active!, ...earlier.filter((key) => stillVerifies(keys, key, now))] };
}

function stillVerifies(keys: ProviderKeys, key: JWK, now: number): boolean {
  const retiredAt = Date.parse(keys.retired?.[key.kid ?? ''] ?? '');
  // A key without a retirement time was never rotated out by `auth keys rotate`: kept, as written.
  return Number.isNaN(retiredAt) || retiredAt + SIGNED_LIFETIME_MS > now;
}

export interface Rotation {
  keys: ProviderKeys;
  /** The new signing key. */
  kid: string;
  /** Retired keys left out of the file: everything they signed has expired. */
  dropped: string[];
}

/** A new signing key first; the previous one retired now; keys retired past SIGNED_LIFETIME_MS dropped. */
export function rotateKeys(keys: ProviderKeys, now = Date.now()): Rotation {
  const key = newSigningKey();
  const retired: Record<string, string> = { ...keys.retired };
  const previous = activeKid(keys);
  if (previous) retired[previous] = new Date(now).toISOString();
  const kept = keys.jwks.keys.filter((candidate) => stillVerifies({ ...keys, retired }, candidate, now));
  const dropped = keys.jwks.keys.filter((candidate) => !kept.includes(candidate)).map((candidate) => candidate.kid ?? '?');
  for (const kid of dropped) delete retired[kid];
  return { keys: { jwks: { keys: [key, ...kept] }, cookieKeys: keys.cookieKeys, retired }, kid: key.kid!, dropped };
}

/** Replaces `file` atomically (a temporary file renamed over it), mode 0600. */
export function replaceKeysFile(file: string, keys: ProviderKeys): void {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(temporary, keysText(keys), { mode: 0o600 });
  fs.renameSync(temporary, file);
}
