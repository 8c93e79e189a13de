/**
 * Client secrets, stored only as bcrypt hashes (BCRYPT_COST): a given one is 1–72 printable ASCII characters
 * (RFC 6749 Appendix A.2; bcrypt ignores bytes past 72, and the server refuses anything outside VSCHAR); a generated
 * one is 32 CSPRNG bytes in base64url.
 */
import crypto from 'node:crypto';
import bcrypt from 'bcrypt';
import { readSettings, type Env } from '@heroes/platform/settings';
import { SETTINGS } from '../config/settings.ts';
import { invalidInput } from './client-registry-error.ts';
import { isVschar } from './vschar.ts';

/** The one BCRYPT_COST entry (config/settings.ts): the CLI reads it alone, without the server's other settings. */
const COST_SETTING = { bcryptCost: SETTINGS.bcryptCost };

const MAX_SECRET_BYTES = 72;

/** The bcrypt cost: BCRYPT_COST when set (an integer 4–31), else 10. */
function bcryptCost(env: Env = process.env): number {
  const { values, problems } = readSettings(COST_SETTING, env);
  if (problems.length > 0) throw invalidInput(`${problems.join('; ')}.`);
  return values.bcryptCost;
}

/** A new random client secret: 32 random bytes, base64url without padding. */
export function generateClientSecret(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** Returns `secret` unchanged, or throws a one-line error that never echoes it. */
export function validateClientSecret(secret: string): string {
  if (secret === '') throw invalidInput('Client secret must not be empty (omit --secret for a public client).');
  if (Buffer.byteLength(secret, 'utf8') > MAX_SECRET_BYTES) {
    throw invalidInput(`Client secret is longer than ${MAX_SECRET_BYTES} bytes, which bcrypt cannot hash in full.`);
  }
  if (!isVschar(secret)) {
    throw invalidInput('Client secret must contain only printable ASCII characters, space to ~ (RFC 6749 Appendix A.2); use --generate-secret for a strong one.');
  }
  return secret;
}

/**
 * The bcrypt hash to store for `secret`.
 *
 * Usage: `const hashedSecret = await hashClientSecret('s3cret');`
 */
export async function hashClientSecret(secret: string, cost: number = bcryptCost()): Promise<string> {
  return bcrypt.hash(validateClientSecret(secret), cost);
}

/**
 * True when `secret` matches the stored bcrypt hash (slow: ~50 ms at cost 10;
 * the server verifies through the cache in secret-cache.ts).
 */
export async function verifyClientSecret(secret: string, hashedSecret: string | null): Promise<boolean> {
  if (hashedSecret === null || secret === '') return false;
  return bcrypt.compare(secret, hashedSecret);
}
