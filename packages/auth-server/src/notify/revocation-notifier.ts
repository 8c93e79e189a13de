/**
 * Tells resource servers that access tokens died, so they drop what they
 * cached about them: `NOTIFY heroes_tokens_revoked, '<json>'` (channel and
 * payload type from @heroes/oauth-scopes, shared with the listeners), used by the provider's adapter
 * (revocation, code replay, grant revocation) and by the client registry
 * (remove-client, rotate-secret).
 *
 * The payload holds whatever is known (see RevokedTokens):
 *   {"tokenHash": ...}  one token (SHA-256 hex of its value, as stored);
 *   {"grantId": ...}    every token of a grant;
 *   {"clientId": ...}   every token of a client;
 *   {"userId": ...}     every token of a user (users admin, auth/users/).
 *
 * Rules enforced here:
 * - the payload stays far below PostgreSQL's 8000-byte NOTIFY limit (each
 *   value is bounded; a longer one is left out rather than failing); with
 *   nothing left, nothing is sent;
 * - notifyTokensRevoked throws when the NOTIFY fails: inside the caller's
 *   transaction, PostgreSQL delivers it only if that transaction commits;
 * - createRevocationNotifier logs a failed NOTIFY and never turns it into a
 *   failed revocation: the token is already gone from the database, and
 *   resource servers bound their cache lifetime anyway.
 */
import type { Prisma } from '@heroes/db';
import { TOKENS_REVOKED_CHANNEL, type RevokedTokens } from '@heroes/oauth-scopes';
import type { Logger } from 'pino';

export { TOKENS_REVOKED_CHANNEL, type RevokedTokens };

const MAX_VALUE_LENGTH = 512;
const FIELDS = ['clientId', 'grantId', 'tokenHash', 'userId', 'unlockedAccount'] as const;

/** A PrismaClient or a transaction client. */
type SqlExecutor = Pick<Prisma.TransactionClient, '$executeRaw'>;

/**
 * Sends the notification; throws when it fails.
 *
 * Usage: `await db.$transaction(async (tx) => { ...; await notifyTokensRevoked(tx, { clientId }); })`
 */
export async function notifyTokensRevoked(db: SqlExecutor, revoked: RevokedTokens): Promise<void> {
  const payload: RevokedTokens = {};
  for (const field of FIELDS) {
    const value = revoked[field];
    if (value && value.length <= MAX_VALUE_LENGTH) payload[field] = value;
  }
  if (Object.keys(payload).length === 0) return;
  await db.$executeRaw`SELECT pg_notify(${TOKENS_REVOKED_CHANNEL}, ${JSON.stringify(payload)})`;
}

export type RevocationNotifier = (revoked: RevokedTokens) => Promise<void>;

/**
 * notifyTokensRevoked for revocations already written: failures are logged.
 *
 * Usage:
 *   const notify = createRevocationNotifier(db, logger);
 *   await notify({ grantId });
 */
export function createRevocationNotifier(db: SqlExecutor, logger?: Logger): RevocationNotifier {
  return async function notifyRevocation(revoked) {
    try {
      await notifyTokensRevoked(db, revoked);
    } catch (err) {
      logger?.error({ err }, 'could not notify resource servers of a token revocation');
    }
  };
}
