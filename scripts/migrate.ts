/**
 * `npm run migrate`: applies pending migrations to DATABASE_DIRECT_URL, else
 * DATABASE_URL, or to the embedded server when DATABASE_URL is unset (started
 * for the command and stopped after it). One line on success or failure (one
 * per bad setting); exit 1 on failure.
 */
import { migrateAndReport } from '@heroes/db/migrate-command';
import { DATABASE_COMMAND_SETTINGS, resolveDatabaseUrl } from '@heroes/embedded-postgres';
import { readSettings } from '@heroes/platform/settings';

const { values: { databaseDirectUrl }, problems } = readSettings(DATABASE_COMMAND_SETTINGS, process.env);
if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  process.exit(1);
}
const database = await resolveDatabaseUrl({ log: (line) => console.error(line) }).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
let exitCode: number;
try {
  exitCode = await migrateAndReport(database.source === 'embedded' ? database.url : (databaseDirectUrl ?? database.url));
} finally {
  await database.release();
}
process.exit(exitCode);
