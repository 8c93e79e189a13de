/**
 * Tells resource servers that access tokens died: `NOTIFY heroes_tokens_revoked` with what is known, one token
 * (`tokenHash`), a grant, a client or a user. The payload stays under PostgreSQL's 8000-byte limit (a too-long value is
 * left out); notifyTokensRevoked throws, so inside a transaction the notice goes only with the commit;
 * createRevocationNotifier logs a failed NOTIFY and never fails the revocation (resource servers bound their cache).
 */
import { notify, type Transaction } from '@heroes/db';
import { TOKENS_REVOKED_CHANNEL, type RevokedTokens } from '@heroes/oauth-scopes';
import type { Logger } from 'pino';

export { TOKENS_REVOKED_CHANNEL, type RevokedTokens };

const MAX_VALUE_LENGTH = 512;
const FIELDS = ['clientId', 'grantId', 'tokenHash', 'userId', 'unlockedAccount'] as const;

/** A PrismaClient or a transaction client (@heroes/db inTransaction). */
type SqlExecutor = Transaction;

/**
 * Sends the notification; throws when it fails.
 *
 * Usage: `await inTransaction(db, async (tx) => { ...; await notifyTokensRevoked(tx, { clientId }); })`
 */
export async function notifyTokensRevoked(db: SqlExecutor, revoked: RevokedTokens): Promise<void> {
  const payload: RevokedTokens = {};
  for (const field of FIELDS) {
    const value = revoked[field];
    if (value && value.length <= MAX_VALUE_LENGTH) payload[field] = value;
  }
  if (Object.keys(payload).length === 0) return;
  await notify(db, TOKENS_REVOKED_CHANNEL, JSON.stringify(payload));
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
