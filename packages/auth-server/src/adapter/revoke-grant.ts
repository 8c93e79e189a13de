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
 * - an audit event given (refresh.reused) is written in that transaction;
 * - resource servers are told (`{"grantId": ...}`), so their caches drop
 *   the grant's access tokens.
 *
 * Usage: `await revokeGrant(db, notify, grantId)`
 */
import type { AuditEvent, PrismaClient } from '@heroes/db';
import type { AuditTrail } from '../audit/audit-trail.ts';
import type { RevocationNotifier } from '../notify/revocation-notifier.ts';

export async function revokeGrant(db: PrismaClient, notify: RevocationNotifier, grantId: string, audit?: { trail: AuditTrail; event: AuditEvent }): Promise<void> {
  const recorded = audit?.trail.prepare(audit.event);
  await db.$transaction([
    db.accessToken.deleteMany({ where: { grantId } }),
    db.refreshToken.deleteMany({ where: { grantId } }),
    db.authorizationCode.deleteMany({ where: { grantId } }),
    db.oidcRecord.deleteMany({ where: { model: 'Grant', id: grantId } }),
    ...(recorded ? [recorded.insert(db)] : []),
  ]);
  recorded?.written();
  await notify({ grantId });
}
