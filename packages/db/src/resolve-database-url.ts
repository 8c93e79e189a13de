import { startEmbeddedPostgres } from './embedded-postgres.ts';

export interface ResolvedDatabase {
  url: string;
  /** 'env' when DATABASE_URL was set, 'embedded' otherwise. */
  source: 'env' | 'embedded';
  /** Stops the embedded server when this process started it; a no-op otherwise. */
  release(): Promise<void>;
}

/**
 * The database every command of the project uses: DATABASE_URL when set,
 * otherwise the embedded PostgreSQL server (started here when not running).
 */
export async function resolveDatabaseUrl(options: { log?: (line: string) => void } = {}): Promise<ResolvedDatabase> {
  const fromEnv = process.env.DATABASE_URL;
  if (fromEnv) return { url: fromEnv, source: 'env', release: async () => {} };
  const server = await startEmbeddedPostgres(options);
  return {
    url: server.url,
    source: 'embedded',
    release: () => (server.startedHere ? server.stop() : Promise.resolve()),
  };
}
