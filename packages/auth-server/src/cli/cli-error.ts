/**
 * Expected failures of the `auth` command line and how any error becomes the one line an operator sees: a single
 * line, never a stack trace; a database URL only as host:port; Prisma's multi-line messages replaced by their meaning.
 */
import { databaseAddress } from '@heroes/db';
import { classifyDatabaseError } from '@heroes/db/database-errors';
import { ClientRegistryError, type ClientRegistryErrorCode } from '../clients/index.ts';
import { UserNotFoundError } from '../users/user-admin.ts';

/** What went wrong, as `--json` output names it in `error`. */
export type CliErrorCode = 'usage_error' | 'unknown_scope' | 'built_in_client' | 'user_not_found' | 'database_error' | 'unexpected_error';

/** A failure whose `message` is the line to print on stderr (exit code 1). */
export class CliError extends Error {
  override name = 'CliError';
  readonly code: CliErrorCode;

  constructor(message: string, options?: ErrorOptions & { code?: CliErrorCode }) {
    super(message, options);
    this.code = options?.code ?? 'usage_error';
  }
}

/**
 * The `error` member of a `--json` error: the registry's code
 * (invalid_input, client_exists, client_not_found), the CLI's
 * (usage_error, unknown_scope, built_in_client, user_not_found, database_error), or unexpected_error.
 */
export function errorCode(err: unknown): ClientRegistryErrorCode | CliErrorCode {
  if (isExpected(err)) return err.code;
  return classifyDatabaseError(err) ? 'database_error' : 'unexpected_error';
}

/** The one line to print for `err`; what a database error means comes from @heroes/db's classifier. */
export function errorLine(err: unknown, databaseUrl?: string): string {
  if (isExpected(err)) return firstLine(err.message);
  const where = databaseUrl ? databaseAddress(databaseUrl) : 'the configured address';
  const failure = classifyDatabaseError(err);
  if (!failure) return `unexpected error: ${firstLine(err instanceof Error ? err.message : String(err))}`;
  switch (failure.kind) {
    case 'unreachable':
    case 'timeout':
      return `cannot reach the database at ${where}`;
    case 'auth_failed':
      return `cannot log in to the database at ${where}: authentication failed`;
    case 'no_database':
      return `the database named in DATABASE_URL does not exist at ${where}`;
  }
  const code = failure.code ?? failure.kind;
  const driverMessage = driverCause(err)?.originalMessage ?? driverCause(err)?.kind;
  return typeof driverMessage === 'string' ? `database error ${code}: ${firstLine(driverMessage)}` : `database error ${code}`;
}

/** A failure the command line expects, whose message is the line to print. */
export function isExpected(err: unknown): err is ClientRegistryError | CliError | UserNotFoundError {
  return err instanceof ClientRegistryError || err instanceof CliError || err instanceof UserNotFoundError;
}

function driverCause(err: unknown): Record<string, unknown> | undefined {
  const meta = (err as { meta?: { driverAdapterError?: { cause?: Record<string, unknown> } } } | null)?.meta;
  return meta?.driverAdapterError?.cause;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.trim() ?? '';
}
