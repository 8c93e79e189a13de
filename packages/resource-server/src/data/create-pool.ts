/**
 * The pg pool behind the hero routes (the hot path: a Prisma findMany costs
 * ~0.7 ms of CPU per call here, capping GET /heroes near 1,500 req/s on the
 * 2-core dev machine; the same query on pg directly reaches ~6,000).
 * - an idle connection that dies is dropped and logged, never a crash.
 * - `query()` rethrows what pg throws: @heroes/db's one database-error
 *   classifier (mapDatabaseError) answers it (23505 → 409; refused, reset,
 *   terminated → 503 `unable to connect to database`; pool timeout → 503
 *   `timed out connection to database`); the pool reconnects on the next call.
 * - a query's limit, `queryTimeoutMs`, is PostgreSQL's own (statement and
 *   lock timeouts, @heroes/db's queryTimeouts): the statement is cancelled
 *   and rolled back → 503 `timed out connection to database`, nothing
 *   written; pg's "Query read timeout" a second later is the net for a
 *   dead network (the connection is dropped then).
 */
import pg from 'pg';
import { queryTimeouts } from '@heroes/db/pg';
import type { Logger } from 'pino';

/**
 * The current time as the TIMESTAMP(3) columns hold it: UTC, as Prisma
 * writes it (the authorization server), whatever the session's time zone.
 */
export const UTC_NOW = "(now() AT TIME ZONE 'UTC')";

export interface PoolOptions {
  databaseUrl: string;
  max: number;
  connectTimeoutMs: number;
  queryTimeoutMs: number;
  logger: Logger;
}

/** Runs one statement: the pool's, or a transaction's (Database.transaction). */
export type Query = <R extends pg.QueryResultRow>(config: pg.QueryConfig) => Promise<pg.QueryResult<R>>;

export interface Database {
  query<R extends pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<R>>;
  /**
   * `work` on one connection between BEGIN and COMMIT; ROLLBACK when it
   * throws (rethrown). A connection that failed mid-way is dropped, not reused.
   */
  transaction<T>(work: (query: Query) => Promise<T>): Promise<T>;
  end(): Promise<void>;
  /** Connections open, idle, and callers waiting for one (for metrics). */
  stats(): { total: number; idle: number; waiting: number };
}

/**
 * Usage:
 *   const database = createPool({ databaseUrl, max: 10, connectTimeoutMs: 3000, queryTimeoutMs: 5000, logger });
 *   const { rows } = await database.query({ name: 'heroes-list', text: 'SELECT ...' });
 */
export function createPool(options: PoolOptions): Database {
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: options.max,
    connectionTimeoutMillis: options.connectTimeoutMs,
    ...queryTimeouts(options.queryTimeoutMs),
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    application_name: 'resource-server',
  });
  pool.on('error', (err) => options.logger.warn({ err }, 'idle database connection lost'));
  return {
    query: <R extends pg.QueryResultRow>(config: pg.QueryConfig) => pool.query<R>(config),
    async transaction(work) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await work(<R extends pg.QueryResultRow>(config: pg.QueryConfig) => client.query<R>(config));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
        throw err;
      } finally {
        client.release(broken);
      }
    },
    end: () => pool.end(),
    stats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}
