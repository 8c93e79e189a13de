/**
 * Revokes a whole grant from the adapter, where no request context is at
 * hand (a lost race to consume a code or refresh token, see
 * token-adapter.ts), as the library's own revocation does for a replay.
 *
 * Rules enforced here:
 * - every access token, refresh token and code of the grant, and the grant
 *   record itself, are deleted in one transaction: a token issued under the
 *   grant later still dies, since introspection and the refresh grant both
 *   need the grant record;
 * - resource servers are told (`{"grantId": ...}`), so their caches drop
 *   the grant's access tokens.
 *
 * Usage: `await revokeGrant(db, notify, grantId)`
 */
import type { PrismaClient } from '@heroes/db';
import type { RevocationNotifier } from '../notify/revocation-notifier.ts';

export async function revokeGrant(db: PrismaClient, notify: RevocationNotifier, grantId: string): Promise<void> {
  await db.$transaction([
    db.accessToken.deleteMany({ where: { grantId } }),
    db.refreshToken.deleteMany({ where: { grantId } }),
    db.authorizationCode.deleteMany({ where: { grantId } }),
    db.oidcRecord.deleteMany({ where: { model: 'Grant', id: grantId } }),
  ]);
  await notify({ grantId });
}
