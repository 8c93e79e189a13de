/**
 * Database failures → HTTP errors, by duck typing (http-kit depends on no
 * database library). Follows Aqueduct's PostgreSQL mapping (REFERENCE §8).
 *
 * Rules:
 * - unique violation (Prisma P2002, adapter `UniqueConstraintViolation`, SQLSTATE 23505)
 *   → 409 `entity_already_exists`
 * - missing required value (P2011, P2012, `NullConstraintViolation`, 23502)
 *   → 400 `non_null_violation`
 * - foreign key (P2003, `ForeignKeyConstraintViolation`, 23503) → 400 `foreign_key_violation`
 * - record required but not found (P2025) → 404 `not found`
 * - database unreachable (P1000–P1003, P1010, P1011, P1017, P2037, adapter
 *   `DatabaseNotReachable`/`ConnectionClosed`/…, SQLSTATE class 08, 57P01–57P03,
 *   53300, socket errors such as ECONNREFUSED, "Can't reach database server",
 *   pg's plain `Error("Connection terminated unexpectedly")` when a pooled
 *   connection drops under a query) → 503 `unable to connect to database`
 * - timeouts (P1008, P2024, adapter `SocketTimeout`, SQLSTATE 57014, pg-pool's
 *   plain `Error("timeout exceeded when trying to connect")`, pg's
 *   "Connection terminated due to connection timeout")
 *   → 503 `timed out connection to database`
 * - anything else → undefined (the caller turns it into a 500)
 *
 * The error, its `cause` chain, Prisma's `meta.driverAdapterError` and
 * AggregateError members are all inspected (depth-limited).
 */
import { BadRequestError, ConflictError, NotFoundError, ServiceUnavailableError } from './client-errors.ts';
import type { HttpError } from './http-error.ts';

const UNREACHABLE = 'unable to connect to database';
const TIMED_OUT = 'timed out connection to database';

type Mapper = (cause: unknown) => HttpError;

const conflict: Mapper = (cause) => new ConflictError('entity_already_exists', { cause });
const nonNull: Mapper = (cause) => new BadRequestError('non_null_violation', { cause });
const foreignKey: Mapper = (cause) => new BadRequestError('foreign_key_violation', { cause });
const notFound: Mapper = (cause) => new NotFoundError('not found', { cause });
const unreachable: Mapper = (cause) => new ServiceUnavailableError(UNREACHABLE, { cause, code: 'database_unavailable' });
const timedOut: Mapper = (cause) => new ServiceUnavailableError(TIMED_OUT, { cause, code: 'database_timeout' });

/** Prisma error codes (`code` on known request errors, `errorCode` on initialization errors). */
const PRISMA_CODES: Readonly<Record<string, Mapper>> = {
  P2002: conflict,
  P2011: nonNull,
  P2012: nonNull,
  P2003: foreignKey,
  P2025: notFound,
  P1000: unreachable,
  P1001: unreachable,
  P1002: timedOut,
  P1003: unreachable,
  P1008: timedOut,
  P1010: unreachable,
  P1011: unreachable,
  P1017: unreachable,
  P2024: timedOut,
  P2037: unreachable,
};

/** `DriverAdapterError.cause.kind` values of @prisma/adapter-pg. */
const ADAPTER_KINDS: Readonly<Record<string, Mapper>> = {
  UniqueConstraintViolation: conflict,
  NullConstraintViolation: nonNull,
  ForeignKeyConstraintViolation: foreignKey,
  AuthenticationFailed: unreachable,
  DatabaseNotReachable: unreachable,
  DatabaseDoesNotExist: unreachable,
  DatabaseAccessDenied: unreachable,
  TlsConnectionError: unreachable,
  ConnectionClosed: unreachable,
  TooManyConnections: unreachable,
  SocketTimeout: timedOut,
};

/** PostgreSQL SQLSTATE codes (pg driver errors carry `code` and `severity`). */
const SQLSTATES: Readonly<Record<string, Mapper>> = {
  '23505': conflict,
  '23502': nonNull,
  '23503': foreignKey,
  '57P01': unreachable,
  '57P02': unreachable,
  '57P03': unreachable,
  '53300': unreachable,
  '57014': timedOut,
};

const SOCKET_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'EPIPE',
]);

/**
 * Messages of the plain `Error`s that pg and pg-pool throw without any code
 * (first match wins; anchored so an unrelated message never matches).
 */
const MESSAGES: readonly (readonly [RegExp, Mapper])[] = [
  [/^Connection terminated due to connection timeout/, timedOut],
  [/^Connection terminated/, unreachable],
  [/^timeout exceeded when trying to connect/, timedOut],
];

const MAX_DEPTH = 6;

/**
 * Maps a database error to an HttpError, or returns undefined when `err` is
 * not a recognised database failure.
 *
 * Usage:
 * ```ts
 * const mapped = mapDatabaseError(err); // e.g. ConflictError for Prisma P2002
 * ```
 */
export function mapDatabaseError(err: unknown): HttpError | undefined {
  const seen = new Set<unknown>();
  const queue: Array<{ value: unknown; depth: number }> = [{ value: err, depth: 0 }];
  while (queue.length > 0) {
    const { value, depth } = queue.shift()!;
    if (!isRecord(value) || seen.has(value) || depth > MAX_DEPTH) continue;
    seen.add(value);
    const mapper = matchOne(value);
    if (mapper) return mapper(err);
    const meta = value['meta'];
    const next = [value['cause'], isRecord(meta) ? meta['driverAdapterError'] : undefined];
    const members = value['errors'];
    if (Array.isArray(members)) next.push(...members);
    for (const item of next) queue.push({ value: item, depth: depth + 1 });
  }
  return undefined;
}

function matchOne(value: Record<string, unknown>): Mapper | undefined {
  const code = value['code'];
  const errorCode = value['errorCode'];
  for (const candidate of [code, errorCode]) {
    if (typeof candidate === 'string' && /^P\d{4}$/.test(candidate)) return PRISMA_CODES[candidate];
  }
  // DriverAdapterError: { name: 'DriverAdapterError', cause: { kind } }
  const kind = value['kind'];
  if (typeof kind === 'string' && ADAPTER_KINDS[kind]) return ADAPTER_KINDS[kind];
  if (typeof code === 'string') {
    // pg DatabaseError: SQLSTATE plus a severity field.
    if (/^[0-9A-Z]{5}$/.test(code) && typeof value['severity'] === 'string') {
      return SQLSTATES[code] ?? (code.startsWith('08') ? unreachable : undefined);
    }
    // Node socket errors (what pg throws when it cannot connect) carry `syscall`.
    if (SOCKET_CODES.has(code) && typeof value['syscall'] === 'string') return code === 'ETIMEDOUT' ? timedOut : unreachable;
  }
  const message = value['message'];
  if (typeof message !== 'string') return undefined;
  if (/can't reach database server/i.test(message)) return unreachable;
  return MESSAGES.find(([pattern]) => pattern.test(message))?.[1];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
