/**
 * Revokes a whole grant from the adapter, where no request context is at hand (the loser of a race to consume a code
 * or refresh token), as the library does for a replay: every token and code of the grant and the grant record in one
 * transaction (with the audit event given), then resource servers are told `{"grantId": ...}`.
 */
import { revokeGrantRows, type AuditEvent, type PrismaClient } from '@heroes/db';
import type { AuditTrail } from '../audit/audit-trail.ts';
import type { RevocationNotifier } from '../notify/revocation-notifier.ts';

export async function revokeGrant(db: PrismaClient, notify: RevocationNotifier, grantId: string, audit?: { trail: AuditTrail; event: AuditEvent }): Promise<void> {
  const recorded = audit?.trail.prepare(audit.event);
  await revokeGrantRows(db, grantId, recorded?.event);
  recorded?.written();
  await notify({ grantId });
}
