/**
 * A PKCE pair for the tests' code flows (RFC 7636 section 4.2: S256 challenge of a random 43-character verifier).
 */
import crypto from 'node:crypto';

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = crypto.randomBytes(32).toString('base64url');
  const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}
