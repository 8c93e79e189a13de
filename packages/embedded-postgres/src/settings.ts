/**
 * DATABASE_URL as the project's commands read it (optional: unset means the embedded server) and EMBEDDED_PG_PORT,
 * declared here once (DATABASE_COMMAND_SETTINGS): `npm start` and `npm run migrate` check them with the data folder,
 * and resolveDatabaseUrl and the embedded server read them through the same entries.
 */
import { defineSettings, integer, loadSettings, OPTIONAL_DATABASE_URL, SHARED_SETTINGS, type Env } from '@heroes/platform/settings';

export const DATABASE_SETTINGS = defineSettings({
  databaseUrl: OPTIONAL_DATABASE_URL,
});

export const EMBEDDED_SETTINGS = defineSettings({
  embeddedPgPort: { env: 'EMBEDDED_PG_PORT', parse: integer({ min: 1, max: 65_535 }), default: 54329, doc: 'port of the embedded PostgreSQL server' },
});

/** What a command that resolves its database reads (`npm start`, `npm run migrate`): DATABASE_URL, else the embedded server in the data folder, on its port. */
export const DATABASE_COMMAND_SETTINGS = defineSettings({
  ...DATABASE_SETTINGS,
  // With DATABASE_URL: the URL migrations run on, when it is not DATABASE_URL (a transaction pooler's).
  databaseDirectUrl: SHARED_SETTINGS.databaseDirectUrl,
  dataDir: SHARED_SETTINGS.dataDir,
  ...EMBEDDED_SETTINGS,
});

/** The embedded server's port; a SettingsError (one line) for a value the entry refuses. */
export function embeddedPort(env: Env = process.env): number {
  return loadSettings(EMBEDDED_SETTINGS, env).embeddedPgPort;
}

/** DATABASE_URL, or undefined (use the embedded server); a SettingsError (one line) for a value the entry refuses. */
export function givenDatabaseUrl(env: Env = process.env): string | undefined {
  return loadSettings(DATABASE_SETTINGS, env).databaseUrl;
}
