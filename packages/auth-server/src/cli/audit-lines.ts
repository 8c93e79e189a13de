/**
 * The `auth` CLI's audit lines: each audit event a command wrote is also
 * logged as one JSON line, the servers' shape (`{"audit":{"type":…,"at":…},
 * "msg":"audit event"}`, audit/audit-trail.ts).
 *
 * Rules enforced here:
 * - on stderr: stdout is the command's output (text, or `--json`);
 * - once the change committed (with-database.ts logs what the action's
 *   transaction wrote after it succeeded): a refused command logs nothing;
 * - written synchronously, so no line is lost when the process exits;
 * - LOG_LEVEL applies, as for the servers (`warn` silences them).
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
