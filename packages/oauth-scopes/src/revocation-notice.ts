/**
 * The notice the authorization server sends when access tokens die, and
 * that resource servers listen to so they drop what they cached (and, on
 * the same feed, the end of an account's lockout: `unlockedAccount`):
 * `NOTIFY heroes_tokens_revoked, '<json RevokedTokens>'` (PostgreSQL).
 */
export const TOKENS_REVOKED_CHANNEL = 'heroes_tokens_revoked';

/** What died; at least one field is set in a sent payload. */
export interface RevokedTokens {
  /** Every token of this client may be dead (client removed, secret rotated). */
  clientId?: string | undefined;
  /** Every token of this grant is dead (introspection names it: `grant_id`). */
  grantId?: string | undefined;
  /** This one token is dead: the SHA-256 hex of its value, as stored. */
  tokenHash?: string | undefined;
  /** Every token of this user (users.id, as text) may be dead (user disabled or deleted, `auth tokens revoke --user`). */
  userId?: string | undefined;
  /**
   * Not a token: the login lockouts of this account ended (`auth users
   * unlock`; the throttle's subject, a digest), so edges forget the
   * refusals they repeat (docs/http.md, "Fair forwarding"). A notice with
   * only this field leaves cached tokens alone.
   */
  unlockedAccount?: string | undefined;
}

const FIELDS = ['clientId', 'grantId', 'tokenHash', 'userId', 'unlockedAccount'] as const;

/**
 * A received payload → RevokedTokens, keeping only string fields; undefined
 * when nothing usable is in it (not JSON, not an object, no known field):
 * the listener then forgets everything, the only safe reading.
 *
 * Usage: `const revoked = parseRevokedTokens(message.payload);`
 */
export function parseRevokedTokens(payload: string | undefined): RevokedTokens | undefined {
  let value: unknown;
  try {
    value = JSON.parse(payload ?? '');
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const revoked: RevokedTokens = {};
  for (const field of FIELDS) {
    const member = (value as Record<string, unknown>)[field];
    if (typeof member === 'string' && member !== '') revoked[field] = member;
  }
  return Object.keys(revoked).length > 0 ? revoked : undefined;
}
