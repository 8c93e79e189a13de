/**
 * An audit event written inside a Prisma transaction (the `auth` CLI's
 * changes: clients, users, tokens), as one more statement of it: the event
 * and the change commit together or not at all.
 *
 * Usage:
 *   await db.$transaction([db.oAuthClient.create({ data }), auditStatement(db, { type: 'client.added', clientId })]);
 *   await db.$transaction(async (tx) => { ...; await auditStatement(tx, event); });
 */
import { auditInsertStatement, type AuditEvent } from '@heroes/db';

interface RawExecutor<P> {
  $executeRawUnsafe(query: string, ...values: unknown[]): P;
}

export function auditStatement<P>(db: RawExecutor<P>, event: AuditEvent): P {
  const { text, values } = auditInsertStatement(event);
  return db.$executeRawUnsafe(text, ...values);
}
