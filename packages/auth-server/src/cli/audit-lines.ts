/**
 * The `auth` CLI's audit lines: each event a command wrote is logged as one JSON line in the servers' shape, on
 * stderr (stdout is the command's output), only once the change committed, synchronously (none lost at exit), under
 * LOG_LEVEL.
 */
import { auditLogRecord, type AuditEvent } from '@heroes/db';
import { createLogger } from '@heroes/platform';
import { destination, type Logger } from 'pino';

let logger: Logger | undefined;

/** The logger of the CLI's audit lines (for recordKeysRotated, which logs what it wrote). */
export function auditLineLogger(): Logger {
  return (logger ??= createLogger('auth', destination({ dest: 2, sync: true })));
}

/** Usage: `logAuditLines(events)` after the transaction that wrote them committed. */
export function logAuditLines(events: readonly AuditEvent[]): void {
  for (const event of events) auditLineLogger().info({ audit: auditLogRecord(event) }, 'audit event');
}
