/**
 * The audit trail (docs/operations.md, Administration), one `audit_events` row per security event, shared by every
 * replica: written by the change it records (withAuditEvent: one statement; insertAuditEvent: in the caller's
 * transaction; alone when nothing changes); only the fields below, never a password, secret or token, each made
 * storable so a caller's input never fails the statement; `at` is the database's UTC clock.
 */
import type { Queryable } from '../sql-pool.ts';
import { UTC_NOW } from './stored-rows.ts';

export const AUDIT_EVENT_TYPES = [
  'user.registered',
  'login.succeeded',
  'login.failed',
  'login.throttled',
  'token.issued',
  'token.revoked',
  'refresh.reused',
  'client.added',
  'client.changed',
  'client.removed',
  'client.secret_rotated',
  'user.disabled',
  'user.enabled',
  'user.deleted',
  'user.unlocked',
  'keys.rotated',
] as const;

export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

/** What a caller records; `at` is added by the database. */
export interface AuditEvent {
  type: AuditEventType;
  username?: string | undefined;
  clientId?: string | undefined;
  /** The client address of the request that caused it. */
  address?: string | undefined;
  /** The request's X-Request-Id (as its answer carries it). */
  requestId?: string | undefined;
  /** The outcome's reason, in a few words. */
  reason?: string | undefined;
  /** A users.id whose username is stored when `username` is not given (never stored itself). */
  userId?: number | undefined;
}

/** A stored event, as `auth events` and the log line show it. */
export interface AuditRecord extends Omit<AuditEvent, 'userId'> {
  /** ISO 8601, UTC. */
  at: string;
}

/** A SQL statement as pg takes it. */
export interface Statement {
  name?: string;
  text: string;
  values: unknown[];
}

const MAX_FIELD_LENGTH = 256;

const COLUMNS = ['type', 'username', 'client_id', 'address', 'request_id', 'reason'] as const;
/** NUL and lone surrogates: PostgreSQL text cannot hold them. */
// eslint-disable-next-line no-control-regex -- NUL is the very character looked for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function isAuditEventType(value: string): value is AuditEventType {
  return (AUDIT_EVENT_TYPES as readonly string[]).includes(value);
}

/** The event's column values, in COLUMNS order, each storable or null; then the userId. */
function eventValues(event: AuditEvent): unknown[] {
  const columns = [event.type, event.username, event.clientId, event.address, event.requestId, event.reason].map(storable);
  return [...columns, Number.isSafeInteger(event.userId) ? event.userId : null];
}

function storable(value: string | undefined): string | null {
  if (value === undefined) return null;
  const cut = value.length > MAX_FIELD_LENGTH ? `${value.slice(0, MAX_FIELD_LENGTH - 1)}…` : value;
  return cut.replace(UNSTORABLE, '\uFFFD');
}

/** `INSERT INTO audit_events …` with placeholders from `$first` on (eventValues' order). */
function insertText(first: number): string {
  const placeholders = COLUMNS.map((column, i) => column === 'username'
    ? `COALESCE($${first + i}, (SELECT username FROM users WHERE id = $${first + COLUMNS.length}::int))`
    : `$${first + i}`);
  return `INSERT INTO audit_events (${COLUMNS.join(', ')}, at) VALUES (${placeholders.join(', ')}, ${UTC_NOW})`;
}

/**
 * `statement`, also inserting `event` when it runs (one statement: both or neither).
 *
 * Usage: `await pool.query(withAuditEvent({ name: 'x', text: 'DELETE FROM …', values }, event))`
 */
export function withAuditEvent(statement: Statement, event: AuditEvent): Statement {
  const insert = `audit_event AS (${insertText(statement.values.length + 1)})`;
  const leadingWith = /^\s*WITH\s+/i;
  const text = leadingWith.test(statement.text)
    ? statement.text.replace(leadingWith, `WITH ${insert}, `)
    : `WITH ${insert} ${statement.text}`;
  return {
    ...(statement.name ? { name: `${statement.name}+audit` } : {}),
    text,
    values: [...statement.values, ...eventValues(event)],
  };
}

/**
 * A Queryable whose every statement also inserts `event`: for a function that makes its change in one
 * statement through the Queryable it is given. `onWritten` runs after the statement succeeded (the log line).
 *
 * Usage: `await countInWindow(auditedQueryable(pool, event), key, windowMs)`
 */
export function auditedQueryable(db: Queryable, event: AuditEvent, onWritten?: () => void): Queryable {
  return {
    async query(statement) {
      const result = await db.query(withAuditEvent(statement, event));
      onWritten?.();
      return result;
    },
  };
}

/** The statement inserting `event` alone, for a caller's transaction (`tx.$executeRawUnsafe(s.text, ...s.values)`). */
export function auditInsertStatement(event: AuditEvent): Statement {
  return { name: 'audit-event-insert', text: insertText(1), values: eventValues(event) };
}

/** Inserts `event` alone (an event that changes nothing else), or inside the caller's transaction client. */
export async function insertAuditEvent(db: Queryable, event: AuditEvent): Promise<void> {
  await db.query(auditInsertStatement(event));
}

/**
 * Inserts a `keys.rotated` event unless one with the same reason (it names the new key) exists:
 * every replica that loads the new key may try (a partial unique index keeps one). Answers whether this call wrote it.
 */
export async function insertKeysRotatedOnce(db: Queryable, event: AuditEvent & { type: 'keys.rotated'; reason: string }): Promise<boolean> {
  const { rows } = await db.query({
    name: 'audit-event-keys-rotated',
    text: `${insertText(1)} ON CONFLICT (reason) WHERE type = 'keys.rotated' DO NOTHING RETURNING 1 AS written`,
    values: eventValues(event),
  });
  return rows.length === 1;
}

/**
 * Inserts `event` through a Prisma client or interactive transaction: one more statement of the caller's Prisma
 * transaction (batch: pass the client and put the answer in the batch; interactive: await it on `tx`).
 */
export function insertAuditEventWithPrisma<P>(db: { $executeRawUnsafe(query: string, ...values: unknown[]): P }, event: AuditEvent): P {
  const { text, values } = auditInsertStatement(event);
  return db.$executeRawUnsafe(text, ...values);
}

export interface AuditFilter {
  username?: string | undefined;
  clientId?: string | undefined;
  type?: AuditEventType | undefined;
  /** Only events at or after this instant. */
  since?: Date | undefined;
  /** The newest this many (default 1000). */
  limit?: number | undefined;
}

/** The matching events, oldest first (the newest `limit` of them). */
export async function listAuditEvents(db: Queryable, filter: AuditFilter = {}): Promise<AuditRecord[]> {
  const { rows } = await db.query({
    name: 'audit-events-list',
    text: `SELECT * FROM (
        SELECT id, type, to_char(at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at, username, client_id, address, request_id, reason
        FROM audit_events
        WHERE ($1::text IS NULL OR username = $1) AND ($2::text IS NULL OR client_id = $2) AND ($3::text IS NULL OR type = $3)
          AND ($4::float8 IS NULL OR at >= to_timestamp($4::float8 / 1000) AT TIME ZONE 'UTC')
        ORDER BY at DESC, id DESC LIMIT $5::int) newest
      ORDER BY at, id`,
    values: [filter.username ?? null, filter.clientId ?? null, filter.type ?? null, filter.since?.getTime() ?? null, filter.limit ?? 1000],
  });
  return rows.map((row) => toRecord(row as Record<string, string | null>));
}

function toRecord(row: Record<string, string | null>): AuditRecord {
  const record: AuditRecord = { type: row['type'] as AuditEventType, at: row['at']! };
  const fields = { username: row['username'], clientId: row['client_id'], address: row['address'], requestId: row['request_id'], reason: row['reason'] };
  for (const [key, value] of Object.entries(fields)) if (value !== null && value !== undefined) (record as unknown as Record<string, string>)[key] = value;
  return record;
}

/**
 * The event as one log line's object, with `at` from this process's clock (the row's is the database's);
 * an event that names its user by id only says `userId` (the row has the username).
 */
export function auditLogRecord(event: AuditEvent): AuditRecord & { userId?: number } {
  const record: AuditRecord & { userId?: number } = { type: event.type, at: new Date().toISOString() };
  if (event.username === undefined && event.userId !== undefined) record.userId = event.userId;
  for (const key of ['username', 'clientId', 'address', 'requestId', 'reason'] as const) {
    const value = event[key];
    if (value !== undefined) record[key] = storable(value)!;
  }
  return record;
}
