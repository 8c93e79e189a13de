/**
 * Runs one CLI action against DATABASE_URL, else the database of the service running on HEROES_DATA_DIR
 * (`running.json`). It never starts an embedded cluster (no database: one line saying what to do); migrates only
 * when tables are missing, then retries once; disconnects before returning; every failure leaves as a one-line
 * error; the action's audit events are logged once it succeeded.
 */
import path from 'node:path';
import { applyMigrations, createDb, describeDatabase, type PrismaClient } from '@heroes/db';
import { dataDir, readRuntimeFile, runtimeFilePath } from '@heroes/platform/local-state';
import { classifyDatabaseError } from '@heroes/db/database-errors';
import { collectAuditEvents } from '../audit/prisma-audit.ts';
import { logAuditLines } from './audit-lines.ts';
import { CliError, errorLine, isExpected } from './cli-error.ts';
import { cliSetting } from './cli-settings.ts';

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
  const resolved = findDatabase();
  const db = createDb(resolved.url, { maxConnections: 2 });
  const where = resolved.source === 'embedded'
    ? `the embedded ${describeDatabase(resolved.url)} (data in ${path.join(dataDir, 'postgres')})`
    : describeDatabase(resolved.url);
  // Each attempt's events: a first attempt that found no tables wrote none.
  const run = async () => {
    const { value, events } = await collectAuditEvents(() => action(db));
    logAuditLines(events);
    return { value, where };
  };
  try {
    try {
      return await run();
    } catch (err) {
      if (classifyDatabaseError(err)?.kind !== 'missing_table') throw err;
      log('the database has no tables yet: applying migrations');
      await applyMigrations(resolved.source === 'env' ? (cliSetting('databaseDirectUrl') ?? resolved.url) : resolved.url);
      return await run();
    }
  } catch (err) {
    if (isExpected(err)) throw err;
    throw new CliError(errorLine(err, resolved.url), { cause: err, code: classifyDatabaseError(err) ? 'database_error' : 'unexpected_error' });
  } finally {
    await db.$disconnect().catch(() => {});
  }
}

/** DATABASE_URL, else the running service's database; else a CliError saying what to do. */
function findDatabase(): { url: string; source: 'env' | 'embedded' } {
  const fromEnv = cliSetting('databaseUrl');
  if (fromEnv) return { url: fromEnv, source: 'env' };
  const runtime = readRuntimeFile(dataDir);
  if (runtime.state === 'running') return { url: runtime.info.databaseUrl, source: runtime.info.source };
  const why = runtime.state === 'stale'
    ? `the service that wrote ${runtimeFilePath(dataDir)} (pid ${runtime.info.pid}) is no longer running`
    : `no service is running on the data folder ${dataDir}`;
  throw new CliError(`${why}: start the service (npm start, with the same HEROES_DATA_DIR) or set DATABASE_URL`, { code: 'database_error' });
}
