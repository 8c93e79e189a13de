/**
 * Tells resource servers that access tokens died, so they drop cached
 * introspection results: `NOTIFY heroes_tokens_revoked, '<json>'` with
 * `{"grantId": ..., "tokenHash": ...}` (whatever is known; tokenHash is the
 * SHA-256 hex of the token value, as stored).
 *
 * Rules enforced here:
 * - the payload stays far below PostgreSQL's 8000-byte NOTIFY limit (ids are
 *   bounded; anything longer is truncated out rather than failing);
 * - a failed NOTIFY is logged, never turned into a failed revocation: the
 *   token is already gone from the database, and resource servers bound
 *   their cache lifetime anyway.
 */
import type { PrismaClient } from '@heroes/db';
import type { Logger } from 'pino';

export const TOKENS_REVOKED_CHANNEL = 'heroes_tokens_revoked';
const MAX_ID_LENGTH = 512;

export interface RevokedTokens {
  grantId?: string | undefined;
  tokenHash?: string | undefined;
}

export type RevocationNotifier = (revoked: RevokedTokens) => Promise<void>;

/**
 * Usage:
 *   const notify = createRevocationNotifier(db, logger);
 *   await notify({ grantId });
 */
export function createRevocationNotifier(db: PrismaClient, logger?: Logger): RevocationNotifier {
  return async function notifyTokensRevoked(revoked) {
    const payload: RevokedTokens = {};
    if (revoked.grantId && revoked.grantId.length <= MAX_ID_LENGTH) payload.grantId = revoked.grantId;
    if (revoked.tokenHash && revoked.tokenHash.length <= MAX_ID_LENGTH) payload.tokenHash = revoked.tokenHash;
    if (!payload.grantId && !payload.tokenHash) return;
    try {
      await db.$executeRaw`SELECT pg_notify(${TOKENS_REVOKED_CHANNEL}, ${JSON.stringify(payload)})`;
    } catch (err) {
      logger?.error({ err }, 'could not notify resource servers of a token revocation');
    }
  };
}
