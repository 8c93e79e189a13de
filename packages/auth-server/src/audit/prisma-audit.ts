/**
 * An audit event written inside a transaction (the `auth` CLI's changes, @heroes/db inTransaction) as one more statement of it: event
 * and change commit together or not at all. Each is also handed to the action's collector, which logs it once the
 * action succeeded.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { insertAuditEventWithPrisma, type AuditEvent, type Transaction } from '@heroes/db';

/** The events auditStatement wrote within the current collectAuditEvents action. */
const collected = new AsyncLocalStorage<AuditEvent[]>();

export function auditStatement(tx: Transaction, event: AuditEvent): Promise<number> {
  collected.getStore()?.push(event);
  return insertAuditEventWithPrisma(tx, event);
}

/**
 * Runs `action` and answers the events its auditStatement calls wrote. When `action` throws, nothing is answered:
 * its transaction did not commit (each CLI action makes its change in one transaction).
 *
 * Usage: `const { value, events } = await collectAuditEvents(() => disableUser(db, 'bob'));`
 */
export async function collectAuditEvents<T>(action: () => Promise<T>): Promise<{ value: T; events: AuditEvent[] }> {
  const events: AuditEvent[] = [];
  const value = await collected.run(events, action);
  return { value, events };
}
