/**
 * The stored id of a token, code or secret-bearing record: SHA-256 of its value, hex. The database never holds
 * a live token value.
 *
 * Usage: `await db.accessToken.findUnique({ where: { id: hashToken(value) } })`
 */
import crypto from 'node:crypto';

export function hashToken(value: string): string {
  return crypto.createHash('sha256').update(value, 'utf8').digest('hex');
}
