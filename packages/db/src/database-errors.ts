/**
 * The one classifier of database failures, by duck typing (no Prisma or pg import: the CLI loads it fast): a Prisma,
 * driver-adapter, pg or socket error → a kind (unique, non_null, foreign_key, not_found, invalid_value, missing_table,
 * unreachable, auth_failed, no_database, timeout, other), looking through `cause`, driverAdapterError and
 * AggregateError; undefined for anything else. Each server gives the kinds HTTP answers (never a 500), the CLI words.
 */
export type DatabaseFailureKind =
  | 'unique' | 'non_null' | 'foreign_key' | 'invalid_value' | 'not_found' | 'missing_table'
  | 'unreachable' | 'auth_failed' | 'no_database' | 'timeout' | 'other';

export interface DatabaseFailure {
  kind: DatabaseFailureKind;
  /** The Prisma code, SQLSTATE, adapter kind or socket code that decided it, when there was one. */
  code?: string;
}

/** Prisma error codes (`code` on known request errors, `errorCode` on initialization errors). */
const PRISMA_CODES: Readonly<Record<string, DatabaseFailureKind>> = {
  P2002: 'unique',
  P2011: 'non_null',
  P2012: 'non_null',
  P2003: 'foreign_key',
  P2025: 'not_found',
  P2021: 'missing_table',
  P1000: 'auth_failed',
  P1001: 'unreachable',
  P1002: 'timeout',
  P1003: 'no_database',
  P1008: 'timeout',
  P1010: 'auth_failed',
  P1011: 'unreachable',
  P1017: 'unreachable',
  P2024: 'timeout',
  P2037: 'unreachable',
};

/** `DriverAdapterError.cause.kind` values of @prisma/adapter-pg. */
const ADAPTER_KINDS: Readonly<Record<string, DatabaseFailureKind>> = {
  UniqueConstraintViolation: 'unique',
  NullConstraintViolation: 'non_null',
  ForeignKeyConstraintViolation: 'foreign_key',
  TableDoesNotExist: 'missing_table',
  AuthenticationFailed: 'auth_failed',
  DatabaseNotReachable: 'unreachable',
  DatabaseDoesNotExist: 'no_database',
  DatabaseAccessDenied: 'auth_failed',
  TlsConnectionError: 'unreachable',
  ConnectionClosed: 'unreachable',
  TooManyConnections: 'unreachable',
  SocketTimeout: 'timeout',
};

/** PostgreSQL SQLSTATE codes (pg driver errors carry `code` and `severity`); class 08 is `unreachable`. */
const SQLSTATES: Readonly<Record<string, DatabaseFailureKind>> = {
  '23505': 'unique',
  '23502': 'non_null',
  '23503': 'foreign_key',
  '23514': 'invalid_value',
  '42P01': 'missing_table',
  '28000': 'auth_failed',
  '28P01': 'auth_failed',
  '3D000': 'no_database',
  '57P01': 'unreachable',
  '57P02': 'unreachable',
  '57P03': 'unreachable',
  '53300': 'unreachable',
  '57014': 'timeout',
  '55P03': 'timeout',
};

/** Whole SQLSTATE classes: 08 connection exception, 22 data exception. */
const SQLSTATE_CLASSES: Readonly<Record<string, DatabaseFailureKind>> = {
  '08': 'unreachable',
  '22': 'invalid_value',
};

const SOCKET_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'EPIPE',
]);

/**
 * Messages of the plain `Error`s that pg and pg-pool throw without any code
 * (first match wins; anchored so an unrelated message never matches).
 */
const MESSAGES: readonly (readonly [RegExp, DatabaseFailureKind])[] = [
  [/^Connection terminated due to connection timeout/, 'timeout'],
  [/^Connection terminated/, 'unreachable'],
  [/^timeout exceeded when trying to connect/, 'timeout'],
  [/^Query read timeout/, 'timeout'],
  [/^Client has encountered a connection error and is not queryable/, 'unreachable'],
  [/can't reach database server/i, 'unreachable'],
  [/^Client was closed and is not queryable/, 'unreachable'],
  [/^Cannot use a pool after calling end on the pool/, 'unreachable'],
];

const MAX_DEPTH = 6;

/**
 * What a database error means, or undefined when `err` is not one.
 *
 * Usage:
 * ```ts
 * if (classifyDatabaseError(err)?.kind === 'unique') throw clientExists(id, err);
 * ```
 */
export function classifyDatabaseError(err: unknown): DatabaseFailure | undefined {
  const seen = new Set<unknown>();
  const queue: Array<{ value: unknown; depth: number }> = [{ value: err, depth: 0 }];
  let other: DatabaseFailure | undefined;
  while (queue.length > 0) {
    const { value, depth } = queue.shift()!;
    if (!isRecord(value) || seen.has(value) || depth > MAX_DEPTH) continue;
    seen.add(value);
    const failure = matchOne(value);
    if (failure && failure.kind !== 'other') return failure;
    other ??= failure;
    const meta = value['meta'];
    const next = [value['cause'], isRecord(meta) ? meta['driverAdapterError'] : undefined];
    const members = value['errors'];
    if (Array.isArray(members)) next.push(...members);
    for (const item of next) queue.push({ value: item, depth: depth + 1 });
  }
  return other;
}

function matchOne(value: Record<string, unknown>): DatabaseFailure | undefined {
  const code = value['code'];
  const errorCode = value['errorCode'];
  for (const candidate of [code, errorCode]) {
    if (typeof candidate === 'string' && /^P\d{4}$/.test(candidate)) return { kind: PRISMA_CODES[candidate] ?? 'other', code: candidate };
  }
  // DriverAdapterError: { name: 'DriverAdapterError', cause: { kind } }
  const kind = value['kind'];
  if (typeof kind === 'string' && ADAPTER_KINDS[kind]) return { kind: ADAPTER_KINDS[kind], code: kind };
  if (typeof code === 'string') {
    // pg DatabaseError: SQLSTATE plus a severity field.
    if (/^[0-9A-Z]{5}$/.test(code) && typeof value['severity'] === 'string') {
      return { kind: SQLSTATES[code] ?? SQLSTATE_CLASSES[code.slice(0, 2)] ?? 'other', code };
    }
    // Node socket errors (what pg throws when it cannot connect) carry `syscall`.
    if (SOCKET_CODES.has(code) && typeof value['syscall'] === 'string') return { kind: code === 'ETIMEDOUT' ? 'timeout' : 'unreachable', code };
  }
  const message = value['message'];
  if (typeof message !== 'string') return undefined;
  const matched = MESSAGES.find(([pattern]) => pattern.test(message));
  return matched ? { kind: matched[1] } : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
