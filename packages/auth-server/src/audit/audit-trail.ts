/**
 * How the authorization server records audit events (@heroes/db's audit-events.ts): each rides on the statement that
 * makes its change (or is inserted alone), and once written is logged as one JSON line with the request's id.
 * Usage: await trail.record(pool, { type: 'login.throttled', username }); trail.recordWith(event, pool) for a statement
 */
import { auditedQueryable, auditLogRecord, insertAuditEvent, type AuditEvent, type Queryable } from '@heroes/db';
import { currentRequestId } from '@heroes/platform';
import type { Logger } from 'pino';

export type { RecordWith } from '@heroes/db';

export interface AuditTrail {
  /** `db` whose statement also writes `event` (then logged). */
  recordWith(event: AuditEvent, db: Queryable): Queryable;
  /** Writes `event` alone (then logged). */
  record(db: Queryable, event: AuditEvent): Promise<void>;
  /** For a repository's own transaction: `event` (the request's id added) to write in it, `written()` logs it once committed. */
  prepare(event: AuditEvent): { event: AuditEvent; written(): void };
}

export function createAuditTrail(logger: Logger): AuditTrail {
  const withRequest = (event: AuditEvent): AuditEvent => ({ ...event, requestId: event.requestId ?? currentRequestId() });
  const log = (event: AuditEvent) => logger.info({ audit: auditLogRecord(event) }, 'audit event');
  return {
    recordWith(event, db) {
      const full = withRequest(event);
      return auditedQueryable(db, full, () => log(full));
    },
    async record(db, event) {
      const full = withRequest(event);
      await insertAuditEvent(db, full);
      log(full);
    },
    prepare(event) {
      const full = withRequest(event);
      return { event: full, written: () => log(full) };
    },
  };
}
