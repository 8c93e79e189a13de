/**
 * The HTTP answer of each kind of database failure (docs/http.md): a database failure is never a 500. http-kit knows
 * no database: a server passes @heroes/db's classifyDatabaseError, whose kinds must all be listed here (type-checked).
 * Usage: createHttpKit({ translateError: answerDatabaseFailures(classifyDatabaseError) })
 */
import { BadRequestError, ConflictError, NotFoundError } from './client-errors.ts';
import type { HttpError } from './http-error.ts';
import { RetryLaterError } from './retry-later-error.ts';
import type { ErrorTranslator } from './to-problem.ts';

const UNREACHABLE = 'unable to connect to database';
const FAILED = 'database error';
const unreachable = (cause: unknown) => new RetryLaterError(UNREACHABLE, { cause, code: 'database_unavailable' });
const failed = (cause: unknown) => new RetryLaterError(FAILED, { cause, code: 'database_error' });

const ANSWERS = {
  unique: (cause) => new ConflictError('entity_already_exists', { cause }),
  non_null: (cause) => new BadRequestError('non_null_violation', { cause }),
  foreign_key: (cause) => new BadRequestError('foreign_key_violation', { cause }),
  invalid_value: (cause) => new BadRequestError('invalid_value', { cause }),
  not_found: (cause) => new NotFoundError('not found', { cause }),
  unreachable,
  auth_failed: unreachable,
  no_database: unreachable,
  timeout: (cause) => new RetryLaterError('timed out connection to database', { cause, code: 'database_timeout' }),
  missing_table: failed,
  other: failed,
} satisfies Record<string, (cause: unknown) => HttpError>;

export type DatabaseFailureKind = keyof typeof ANSWERS;

/** The translator of `classify`'s failures; anything it does not classify is left to the caller (undefined). */
export function answerDatabaseFailures(classify: (err: unknown) => { kind: DatabaseFailureKind } | undefined): ErrorTranslator {
  return (err) => {
    const failure = classify(err);
    return failure ? ANSWERS[failure.kind](err) : undefined;
  };
}
