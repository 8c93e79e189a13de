/** `npm run migrate`: applies pending migrations to DATABASE_URL or the embedded server. */
import { applyMigrations, resolveDatabaseUrl } from '@heroes/db';

const database = await resolveDatabaseUrl({ log: (line) => console.error(line) });
let exitCode = 0;
try {
  await applyMigrations(database.url);
  console.error(`migrations applied to ${new URL(database.url).host}${new URL(database.url).pathname}`);
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  exitCode = 1;
} finally {
  await database.release();
}
process.exit(exitCode);
