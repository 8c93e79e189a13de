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
import { applyMigrations, createDb, resolveDatabaseUrl, type PrismaClient } from '@heroes/db';
import { ClientRegistryError, prismaCode } from '../clients/index.ts';
import { CliError, errorLine } from './cli-error.ts';

/** Usage: `const clients = await withDatabase((db) => listClients(db));` */
export async function withDatabase<T>(
  action: (db: PrismaClient) => Promise<T>,
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<T> {
  let resolved: Awaited<ReturnType<typeof resolveDatabaseUrl>>;
  try {
    resolved = await resolveDatabaseUrl({ log });
  } catch (err) {
    throw new CliError(`cannot start the embedded PostgreSQL server: ${errorLine(err)}`, { cause: err });
  }
  const db = createDb(resolved.url, { maxConnections: 2 });
  try {
    try {
      return await action(db);
    } catch (err) {
      if (prismaCode(err) !== 'P2021') throw err;
      log('the database has no tables yet: applying migrations');
      await applyMigrations(resolved.url);
      return await action(db);
    }
  } catch (err) {
    if (err instanceof ClientRegistryError || err instanceof CliError) throw err;
    throw new CliError(errorLine(err, resolved.url), { cause: err });
  } finally {
    await db.$disconnect().catch(() => {});
    await resolved.release().catch(() => {});
  }
}
