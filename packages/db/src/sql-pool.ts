/**
 * A process's one PostgreSQL pool, and the one rule for how every statement the servers run reaches it. The
 * authorization server's Prisma client runs on this same pool (client.ts); nothing opens a second one.
 *
 * Rules enforced here:
 * - statements are sent unnamed (parse, bind and execute in one round trip): a transaction pooler such as PgBouncer
 *   hands each transaction any server connection, and a statement prepared by name on one is unknown on the next
 *   (or already exists there). With `preparedStatements` (DB_PREPARED_STATEMENTS, for a direct connection or a
 *   pooler that keeps prepared statements: PgBouncer >= 1.21 `max_prepared_statements`) a statement's name is kept,
 *   and PostgreSQL plans it once per connection;
 * - a statement whose best plan depends on its values (the name search) carries no name at all: it is planned for
 *   its actual values every time, never by a generic plan (docs/performance.md);
 * - a query's time limit is PostgreSQL's own (query-timeouts.ts), and an idle connection that dies is reported to
 *   `onIdleConnectionError`, never an uncaught error; the next query opens a new one;
 * - what pg throws is rethrown as it is: database-errors.ts is the one place that gives it an HTTP meaning.
 *
 * Usage:
 *   const sql = createSqlPool({ url, max: 10, queryTimeoutMs: 3_000, preparedStatements: false });
 *   const { rows } = await sql.query({ name: 'heroes-find', text: 'SELECT id, name FROM heroes WHERE id = $1', values: [id] });
 *   await sql.end();
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
