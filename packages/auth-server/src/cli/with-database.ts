/**
 * Runs one CLI action against the project's database (DATABASE_URL, or the
 * embedded PostgreSQL server, attached to when `npm start` already runs it).
 *
 * Rules enforced here:
 * - migrations are applied only when the tables are missing (Prisma P2021),
 *   then the action is retried once — not on every call (they cost ~1–2 s);
 * - the Prisma client is disconnected and an embedded server started here
 *   is stopped before returning, so the process can exit;
 * - every failure leaves as a CliError or ClientRegistryError with a
 *   one-line message (see errorLine).
 */
import path from 'node:path';
import { applyMigrations, createDb, dataDir, describeDatabase, EmbeddedPostgresError, resolveDatabaseUrl, type PrismaClient } from '@heroes/db';
import { classifyDatabaseError } from '@heroes/http-kit/database-errors';
import { ClientRegistryError } from '../clients/index.ts';
import { CliError, errorLine } from './cli-error.ts';

/** Usage: `const clients = await withDatabase((db) => listClients(db));` */
export async function withDatabase<T>(
  action: (db: PrismaClient) => Promise<T>,
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<T> {
  return (await writeToDatabase(action, log)).value;
}

/**
 * As withDatabase, and says where the action ran, for the success line of a
 * command that writes: `database "heroes" at 127.0.0.1:5432`, plus the data
 * folder for the embedded server (never a user or password).
 *
 * Usage:
 *   const { value: client, where } = await writeToDatabase((db) => addClient(db, input));
 *   stdout.write(`Client '${client.id}' added to ${where}.\n`);
 */
export async function writeToDatabase<T>(
  action: (db: PrismaClient) => Promise<T>,
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<{ value: T; where: string }> {
  let resolved: Awaited<ReturnType<typeof resolveDatabaseUrl>>;
  try {
    resolved = await resolveDatabaseUrl({ log });
  } catch (err) {
    if (err instanceof EmbeddedPostgresError) throw new CliError(err.message, { cause: err, code: 'database_error' });
    throw new CliError(`cannot start the embedded PostgreSQL server: ${errorLine(err)}`, { cause: err, code: 'database_error' });
  }
  const db = createDb(resolved.url, { maxConnections: 2 });
  const where = resolved.source === 'embedded'
    ? `the embedded ${describeDatabase(resolved.url)} (data in ${path.join(dataDir, 'postgres')})`
    : describeDatabase(resolved.url);
  try {
    try {
      return { value: await action(db), where };
    } catch (err) {
      if (classifyDatabaseError(err)?.kind !== 'missing_table') throw err;
      log('the database has no tables yet: applying migrations');
      await applyMigrations(resolved.url);
      return { value: await action(db), where };
    }
  } catch (err) {
    if (err instanceof ClientRegistryError || err instanceof CliError) throw err;
    throw new CliError(errorLine(err, resolved.url), { cause: err, code: classifyDatabaseError(err) ? 'database_error' : 'unexpected_error' });
  } finally {
    await db.$disconnect().catch(() => {});
    await resolved.release().catch(() => {});
  }
}
