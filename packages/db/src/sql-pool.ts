/**
 * A process's one PostgreSQL pool and how every statement reaches it (the auth server's Prisma client runs on it too).
 * Statements go unnamed, so any transaction pooler passes them; with `preparedStatements` (DB_PREPARED_STATEMENTS)
 * named ones are prepared once per connection; a statement whose plan depends on its values never gets a name. Time
 * limits are PostgreSQL's (query-timeouts.ts); a dying idle connection is reported, never thrown; errors are pg's own.
 */
import pg from 'pg';
import { queryTimeouts } from './query-timeouts.ts';

export interface SqlPoolOptions {
  url: string;
  /** Largest number of connections (pg's `max`). Default 10. */
  max?: number;
  /** Milliseconds to wait for a new connection before failing. Default 5000. */
  connectTimeoutMs?: number;
  /** A statement's time limit, enforced by PostgreSQL (query-timeouts.ts). Default: none. */
  queryTimeoutMs?: number;
  /** Keep statement names (DB_PREPARED_STATEMENTS). Default false: every statement unnamed. */
  preparedStatements?: boolean;
  /** Shown in pg_stat_activity. */
  applicationName?: string;
  /** Told when an idle connection dies (a database restart, a dropped database). Default: nothing. */
  onIdleConnectionError?: (err: Error) => void;
}

/** A statement: `name` identifies it (and prepares it when prepared statements are on). */
export interface SqlStatement {
  name?: string;
  text: string;
  values?: unknown[];
}

/** What a repository runs its statements on: a SqlPool, a transaction's Query wrapped by `{ query }`, a pg Pool or Client. */
export interface Queryable {
  query(config: { name?: string; text: string; values: unknown[] }): Promise<{ rows: Array<{ [column: string]: unknown }>; rowCount?: number | null }>;
}

/** Runs one statement: the pool's, or a transaction's (SqlPool.transaction). */
export type Query = <R extends pg.QueryResultRow = pg.QueryResultRow>(statement: SqlStatement) => Promise<pg.QueryResult<R>>;

export interface SqlPool {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(statement: SqlStatement | string, values?: unknown[]): Promise<pg.QueryResult<R>>;
  /**
   * `work` on one connection between BEGIN and COMMIT (one transaction: one server connection behind any pooler);
   * ROLLBACK when it throws (rethrown). A connection that failed mid-way is dropped, not reused.
   */
  transaction<T>(work: (query: Query) => Promise<T>): Promise<T>;
  /** Connections open, idle, and callers waiting for one (for metrics). */
  stats(): { total: number; idle: number; waiting: number };
  readonly ended: boolean;
  end(): Promise<void>;
}

export function createSqlPool(options: SqlPoolOptions): SqlPool & { pool: pg.Pool } {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    ...(options.queryTimeoutMs ? queryTimeouts(options.queryTimeoutMs) : {}),
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    ...(options.applicationName ? { application_name: options.applicationName } : {}),
  });
  // pg-pool re-emits the death of an idle connection on the pool, and an 'error' event nobody listens to kills
  // the process. The dead connection is already out of the pool.
  pool.on('error', (err) => options.onIdleConnectionError?.(err));
  const named = options.preparedStatements === true;
  const config = (statement: SqlStatement, values?: unknown[]): pg.QueryConfig => {
    const sent: pg.QueryConfig = { text: statement.text, values: statement.values ?? values ?? [] };
    if (named && statement.name) sent.name = statement.name;
    return sent;
  };
  return {
    pool,
    query<R extends pg.QueryResultRow>(statement: SqlStatement | string, values?: unknown[]) {
      return typeof statement === 'string' ? pool.query<R>(statement, values) : pool.query<R>(config(statement, values));
    },
    async transaction(work) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await work(<R extends pg.QueryResultRow>(statement: SqlStatement) => client.query<R>(config(statement)));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
        throw err;
      } finally {
        client.release(broken);
      }
    },
    stats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    get ended() {
      return pool.ended;
    },
    end: () => (pool.ended ? Promise.resolve() : pool.end()),
  };
}
