/**
 * A refresh replaces the access token (RFC 6749 section 6; Aqueduct overwrote it): every access token of the grant
 * but the new one is deleted and resource servers are told each `{"tokenHash": ...}`, not the whole grant.
 */
import { deleteOtherAccessTokens, type PrismaClient } from '@heroes/db';
import type { RevocationNotifier } from '../notify/revocation-notifier.ts';
import { hashToken } from './hash-token.ts';

export async function revokeReplacedAccessTokens(db: PrismaClient, notify: RevocationNotifier, grantId: string, keep: string): Promise<void> {
  const ids = await deleteOtherAccessTokens(db, grantId, hashToken(keep));
  for (const tokenHash of ids) await notify({ tokenHash });
}
