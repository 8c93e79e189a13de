/**
 * The database every command of the project uses: DATABASE_URL when set, otherwise the embedded PostgreSQL
 * server (started here when not running, stopped by release() only when started here).
 */
import { startEmbeddedPostgres, type StartOptions } from './embedded-postgres.ts';
import { givenDatabaseUrl } from './settings.ts';

export interface ResolvedDatabase {
  /** The service's connection (with the embedded server: a role that is not a superuser). */
  url: string;
  /**
   * A connection that may create databases, for test runs only: DATABASE_URL
   * itself, or the embedded server's superuser (database `postgres`).
   */
  adminUrl: string;
  /** 'env' when DATABASE_URL was set, 'embedded' otherwise. */
  source: 'env' | 'embedded';
  /** Stops the embedded server when this process started it; a no-op otherwise. */
  release(): Promise<void>;
}

export async function resolveDatabaseUrl(options: StartOptions = {}): Promise<ResolvedDatabase> {
  const fromEnv = givenDatabaseUrl();
  if (fromEnv) return { url: fromEnv, adminUrl: fromEnv, source: 'env', release: async () => {} };
  const server = await startEmbeddedPostgres(options);
  return {
    url: server.url,
    adminUrl: server.superuserUrl,
    source: 'embedded',
    release: () => (server.startedHere ? server.stop() : Promise.resolve()),
  };
}
