/**
 * `node packages/db/dist/migrate-command.js` (the image's migration step) and
 * `npm run migrate`: applies pending migrations to DATABASE_URL, or to the
 * embedded server when it is unset. One line on success or failure; exit 1
 * on failure.
 */
import { applyMigrations } from './migrate.ts';
import { describeDatabase } from './describe-database.ts';
import { resolveDatabaseUrl } from './resolve-database-url.ts';

const database = await resolveDatabaseUrl({ log: (line) => console.error(line) }).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
let exitCode = 0;
try {
  await applyMigrations(database.url);
  console.error(`migrations applied to ${describeDatabase(database.url)}`);
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  exitCode = 1;
} finally {
  await database.release();
}
process.exit(exitCode);
