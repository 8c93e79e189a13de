import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client.ts';
import { createSqlPool, type SqlPool } from './sql-pool.ts';

/** Options of {@link createDb}. */
export interface CreateDbOptions {
  /** Largest number of pooled connections (pg's `max`). Default 10. */
  maxConnections?: number;
  /** Milliseconds to wait for a new connection before failing. Default 5000. */
  connectionTimeoutMs?: number;
  /** Told when an idle pooled connection dies (a database restart, a dropped database). Default: nothing. */
  onIdleConnectionError?: (err: Error) => void;
  /**
   * A query's time limit, milliseconds, enforced by PostgreSQL
   * (`statement_timeout`, `lock_timeout`: the statement is cancelled and
   * rolled back) with pg's `query_timeout` a little longer as the net for a
   * dead network (query-timeouts.ts). Default: no limit.
   */
  queryTimeoutMs?: number;
  /** Keep the names of the statements run through sqlPool() (DB_PREPARED_STATEMENTS, sql-pool.ts). Default false. */
  preparedStatements?: boolean;
}

/**
 * A Prisma client on the pg driver adapter (no native engine, works offline),
 * over the process's one pool (sql-pool.ts): the adapter sends its statements
 * unnamed, as sqlPool() does, so both pass through a transaction pooler.
 *
 * Usage:
 *   const db = createDb(config.databaseUrl); // the loaded settings
 *   const heroes = await db.hero.findMany();
 */
export function createDb(url: string, options: CreateDbOptions = {}): PrismaClient {
  const sql = createSqlPool({
    url,
    max: options.maxConnections ?? 10,
    connectTimeoutMs: options.connectionTimeoutMs ?? 5000,
    ...(options.queryTimeoutMs ? { queryTimeoutMs: options.queryTimeoutMs } : {}),
    preparedStatements: options.preparedStatements ?? false,
    ...(options.onIdleConnectionError ? { onIdleConnectionError: options.onIdleConnectionError } : {}),
  });
  // The adapter ends the pool on $disconnect(), but only once Prisma itself
  // has run a query; a client used only through sqlPool() would keep its
  // connections open: $disconnect() ends the pool in any case.
  const adapter = new PrismaPg(sql.pool, { disposeExternalPool: true });
  const client = new PrismaClient({ adapter });
  const disconnect = client.$disconnect.bind(client);
  client.$disconnect = async () => {
    await disconnect();
    await sql.end();
  };
  pools.set(client, sql);
  return client;
}

/** Connection counts of a client's pool: open, idle, and callers waiting for one (for metrics). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

const pools = new WeakMap<PrismaClient, SqlPool>();

/**
 * The statements of a client made by {@link createDb} that Prisma does not
 * write, on the same pool, under the one naming rule (sql-pool.ts): hot
 * reads by primary key and the throttle's one-statement checks, where a
 * Prisma query would compile its plan in WebAssembly on every call (about
 * 0.7 ms of CPU here).
 *
 * Usage:
 *   const { rows } = await sqlPool(db).query({ name: 'find-x', text: 'SELECT ... WHERE id = $1', values: [id] });
 */
export function sqlPool(db: PrismaClient): SqlPool {
  const sql = pools.get(db);
  if (!sql) throw new TypeError('sqlPool: this PrismaClient was not made by createDb');
  return sql;
}

/**
 * Usage:
 *   metrics.gauge('db_pool_connections', '...', () => poolStats(db));
 */
export function poolStats(db: PrismaClient): PoolStats {
  return pools.get(db)?.stats() ?? { total: 0, idle: 0, waiting: 0 };
}
