/**
 * The notice the authorization server sends when access tokens die, and
 * that resource servers listen to so they drop what they cached:
 * `NOTIFY heroes_tokens_revoked, '<json RevokedTokens>'` (PostgreSQL).
 */
export const TOKENS_REVOKED_CHANNEL = 'heroes_tokens_revoked';

/** What died; at least one field is set in a sent payload. */
export interface RevokedTokens {
  /** Every token of this client may be dead (client removed, secret rotated). */
  clientId?: string | undefined;
  /** Every token of this grant is dead. */
  grantId?: string | undefined;
  /** This one token is dead: the SHA-256 hex of its value, as stored. */
  tokenHash?: string | undefined;
}
