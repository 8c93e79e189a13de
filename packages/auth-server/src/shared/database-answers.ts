/**
 * The HTTP answer of each kind of database failure (@heroes/db's classifyDatabaseError), Aqueduct's
 * PostgreSQL mapping (docs/http.md): a database failure is never a 500. http-kit's translateError takes it.
 */
import { BadRequestError, ConflictError, NotFoundError, RetryLaterError, type HttpError } from '@heroes/http-kit/errors';
import { classifyDatabaseError, type DatabaseFailureKind } from '@heroes/db/database-errors';

const UNREACHABLE = 'unable to connect to database';
const TIMED_OUT = 'timed out connection to database';
const FAILED = 'database error';

const ANSWERS: Readonly<Record<DatabaseFailureKind, (cause: unknown) => HttpError>> = {
  unique: (cause) => new ConflictError('entity_already_exists', { cause }),
  non_null: (cause) => new BadRequestError('non_null_violation', { cause }),
  foreign_key: (cause) => new BadRequestError('foreign_key_violation', { cause }),
  invalid_value: (cause) => new BadRequestError('invalid_value', { cause }),
  not_found: (cause) => new NotFoundError('not found', { cause }),
  unreachable: (cause) => new RetryLaterError(UNREACHABLE, { cause, code: 'database_unavailable' }),
  auth_failed: (cause) => new RetryLaterError(UNREACHABLE, { cause, code: 'database_unavailable' }),
  no_database: (cause) => new RetryLaterError(UNREACHABLE, { cause, code: 'database_unavailable' }),
  timeout: (cause) => new RetryLaterError(TIMED_OUT, { cause, code: 'database_timeout' }),
  missing_table: (cause) => new RetryLaterError(FAILED, { cause, code: 'database_error' }),
  other: (cause) => new RetryLaterError(FAILED, { cause, code: 'database_error' }),
};

/** The HttpError `err` answers, or undefined when it is no database failure. */
export function mapDatabaseError(err: unknown): HttpError | undefined {
  const failure = classifyDatabaseError(err);
  return failure ? ANSWERS[failure.kind](err) : undefined;
}
