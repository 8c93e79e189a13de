/**
 * A refresh replaces the access token (as Aqueduct's AuthServer: the old
 * access token is overwritten and stops working; RFC 6749 section 6).
 *
 * Rules enforced here:
 * - every access token of the grant except the one just issued is deleted;
 * - resource servers are told each one died (`{"tokenHash": ...}` on
 *   heroes_tokens_revoked), so their cache drops it; not the whole grant,
 *   whose new token stays valid.
 *
 * Usage: `await revokeReplacedAccessTokens(db, notify, grantId, newAccessTokenValue)`
 */
import { deleteOtherAccessTokens, type PrismaClient } from '@heroes/db';
import type { RevocationNotifier } from '../notify/revocation-notifier.ts';
import { hashToken } from './hash-token.ts';

export async function revokeReplacedAccessTokens(db: PrismaClient, notify: RevocationNotifier, grantId: string, keep: string): Promise<void> {
  const ids = await deleteOtherAccessTokens(db, grantId, hashToken(keep));
  for (const tokenHash of ids) await notify({ tokenHash });
}
