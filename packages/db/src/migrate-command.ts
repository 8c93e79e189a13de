/**
 * `node packages/db/dist/migrate-command.js`, the image's migration step: applies pending migrations to
 * DATABASE_DIRECT_URL, else DATABASE_URL; one line on success or failure, exit 1 on failure. `npm run migrate` runs
 * the same report (or on the embedded server).
 */
import { fileURLToPath } from 'node:url';
import { OPTIONAL_DATABASE_URL, readSettings, SHARED_SETTINGS } from '@heroes/platform/settings';
import { applyMigrations } from './migrate.ts';
import { describeDatabase } from './describe-database.ts';

/** Applies the migrations to `url` and says so in one line on stderr; resolves to the exit code. */
export async function migrateAndReport(url: string): Promise<number> {
  try {
    await applyMigrations(url);
    console.error(`migrations applied to ${describeDatabase(url)}`);
    return 0;
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    return 1;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // The catalogue's DATABASE_URL entry: a malformed URL is one line naming the variable (never its password).
  const settings = { databaseUrl: OPTIONAL_DATABASE_URL, databaseDirectUrl: SHARED_SETTINGS.databaseDirectUrl };
  const { values: { databaseUrl, databaseDirectUrl }, problems } = readSettings(settings, process.env);
  const url = databaseDirectUrl ?? databaseUrl;
  if (problems.length > 0 || !url) {
    console.error(problems[0] ?? 'DATABASE_URL is not set (npm run migrate uses the embedded server when it is)');
    process.exit(1);
  }
  process.exit(await migrateAndReport(url));
}
