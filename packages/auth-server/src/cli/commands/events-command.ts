/**
 * `auth events`: the audit trail, newest last, filtered by user, client, type and `--since` (a duration or an
 * ISO 8601 instant). Read-only; an unknown type or a malformed `--since` is one line and exit 1.
 */
import { Command, Option } from 'clipanion';
import { AUDIT_EVENT_TYPES, isAuditEventType, listAuditEvents, sqlPool, type AuditRecord } from '@heroes/db';
import { CliError } from '../cli-error.ts';
import { jsonOption, runAction } from '../run-action.ts';
import { withDatabase } from '../with-database.ts';

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `10m`, `2h`, `7d`, `30s`, or an ISO 8601 instant → the instant; otherwise a CliError. */
export function parseSince(text: string, now = Date.now()): Date {
  const relative = /^(\d{1,9})([smhd])$/.exec(text);
  if (relative) return new Date(now - Number(relative[1]) * UNITS[relative[2]!]!);
  const instant = /^\d{4}-\d{2}-\d{2}/.test(text) ? new Date(text) : undefined;
  if (instant && !Number.isNaN(instant.getTime())) return instant;
  throw new CliError(`--since must be a duration like 30s, 10m, 2h, 7d or an ISO 8601 date, not '${text}'.`);
}

function formatEvent(event: AuditRecord): string {
  const fields = [
    event.username !== undefined ? `user=${JSON.stringify(event.username)}` : '',
    event.clientId !== undefined ? `client=${JSON.stringify(event.clientId)}` : '',
    event.address !== undefined ? `address=${event.address}` : '',
    event.requestId !== undefined ? `request=${event.requestId}` : '',
    event.reason !== undefined ? `reason=${JSON.stringify(event.reason)}` : '',
  ].filter(Boolean);
  return `${event.at}  ${event.type.padEnd(21)}  ${fields.join(' ')}`.trimEnd();
}

export class EventsCommand extends Command {
  static override paths = [['events']];

  static override usage = Command.Usage({
    category: 'Administration',
    description: 'Show the audit trail (sign-ins, tokens, clients, users, keys), newest last',
    details: `
      One line per event: time (UTC), type, user, client, client address, request id (the answer's \`X-Request-Id\`) and reason. Never a password, secret or token. Events are kept AUDIT_RETENTION_DAYS (90) days.

      Types: ${AUDIT_EVENT_TYPES.join(', ')}.

      With \`--json\`, prints an array of \`{ type, at, username?, clientId?, address?, requestId?, reason? }\`.
    `,
    examples: [
      ['The last 10 minutes', '$0 events --since 10m'],
      ["A user's failed sign-ins", '$0 events --user bob --type login.failed'],
      ['As JSON', '$0 events --client web --json'],
    ],
  });

  user = Option.String('--user,-u', { description: 'Only events of this username' });
  client = Option.String('--client,-c', { description: 'Only events of this client' });
  type = Option.String('--type,-t', { description: 'Only events of this type' });
  since = Option.String('--since,-s', { description: 'Only events this recent (30s, 10m, 2h, 7d) or since this ISO 8601 date' });
  limit = Option.String('--limit,-n', { description: 'At most this many, the newest (default 1000)' });
  json = jsonOption();

  override async execute(): Promise<number> {
    return runAction(this.context, this.json, async () => {
      const type = this.type;
      if (type !== undefined && !isAuditEventType(type)) throw new CliError(`Unknown event type '${type}'; one of: ${AUDIT_EVENT_TYPES.join(', ')}.`);
      const since = this.since === undefined ? undefined : parseSince(this.since);
      const limit = this.limit === undefined ? 1000 : Number(this.limit);
      if (!Number.isSafeInteger(limit) || limit < 1) throw new CliError(`--limit must be a positive integer, not '${this.limit}'.`);
      const events = await withDatabase((db) => listAuditEvents(sqlPool(db), { username: this.user, clientId: this.client, type, since, limit }));
      const text = events.length === 0 ? 'No events.\n' : `${events.map(formatEvent).join('\n')}\n`;
      return { text, json: events };
    });
  }
}
