/**
 * Expected failures of the `auth` command line and how any error becomes
 * the one line an operator sees.
 *
 * Rules enforced here:
 * - every message is a single line, never a stack trace;
 * - a database URL is shown only as host:port (never user or password);
 * - Prisma's multi-line messages are replaced by what they mean.
 */
import { databaseAddress } from '@heroes/db';
import { ClientRegistryError, prismaCode } from '../clients/index.ts';

/** A failure whose `message` is the line to print on stderr (exit code 1). */
export class CliError extends Error {
  override name = 'CliError';
}


/** The one line to print for `err`. */
export function errorLine(err: unknown, databaseUrl?: string): string {
  if (err instanceof ClientRegistryError || err instanceof CliError) return firstLine(err.message);
  const where = databaseUrl ? databaseAddress(databaseUrl) : 'the configured address';
  const code = prismaCode(err) ?? networkCode(err);
  switch (code) {
    case 'P1001':
    case 'P1002':
    case 'P1017':
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EHOSTUNREACH':
    case 'ETIMEDOUT':
    case 'ECONNRESET':
      return `cannot reach the database at ${where}`;
    case 'P1000':
    case '28P01':
    case '28000':
      return `cannot log in to the database at ${where}: authentication failed`;
    case 'P1003':
    case '3D000':
      return `the database named in DATABASE_URL does not exist at ${where}`;
  }
  const driverMessage = driverCause(err)?.originalMessage ?? driverCause(err)?.kind;
  if (code && typeof driverMessage === 'string') return `database error ${code}: ${firstLine(driverMessage)}`;
  if (code) return `database error ${code}`;
  return `unexpected error: ${firstLine(err instanceof Error ? err.message : String(err))}`;
}

function driverCause(err: unknown): Record<string, unknown> | undefined {
  const meta = (err as { meta?: { driverAdapterError?: { cause?: Record<string, unknown> } } } | null)?.meta;
  return meta?.driverAdapterError?.cause;
}

function networkCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    if (driverCause(e)?.kind === 'DatabaseNotReachable') return 'P1001';
  }
  return undefined;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.trim() ?? '';
}
