import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/client.ts';
import { queryTimeouts } from './query-timeouts.ts';

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
}

/**
 * A Prisma client on the pg driver adapter (no native engine, works offline).
 *
 * Usage:
 *   const db = createDb(config.databaseUrl); // the loaded settings
 *   const heroes = await db.hero.findMany();
 */
export function createDb(url: string, options: CreateDbOptions = {}): PrismaClient {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5000,
    ...(options.queryTimeoutMs ? queryTimeouts(options.queryTimeoutMs) : {}),
  });
  // pg-pool re-emits the death of an idle connection on the pool, and an
  // 'error' event nobody listens to kills the process. Prisma's adapter
  // listens only once Prisma has run a query, and queries through sqlPool()
  // come first: listen from the start. The dead connection is already out of
  // the pool; the next query opens a new one.
  pool.on('error', (err) => options.onIdleConnectionError?.(err));
  // The adapter ends the pool on $disconnect(), but only once Prisma itself
  // has run a query; a client used only through sqlPool() would keep its
  // connections open: $disconnect() ends the pool in any case.
  const adapter = new PrismaPg(pool, { disposeExternalPool: true });
  const client = new PrismaClient({ adapter });
  const disconnect = client.$disconnect.bind(client);
  client.$disconnect = async () => {
    await disconnect();
    if (!pool.ended) await pool.end();
  };
  pools.set(client, pool);
  return client;
}

/** Connection counts of a client's pool: open, idle, and callers waiting for one (for metrics). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

const pools = new WeakMap<PrismaClient, pg.Pool>();

/**
 * The pg pool behind a client made by {@link createDb}, for hot reads by
 * primary key: a Prisma query compiles its plan in WebAssembly on every call
 * (about 0.7 ms of CPU here), a prepared pg statement on the same pool costs
 * a fraction of it. Writes stay with Prisma.
 *
 * Usage:
 *   const { rows } = await sqlPool(db).query({ name: 'find-x', text: 'SELECT ... WHERE id = $1', values: [id] });
 */
export function sqlPool(db: PrismaClient): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new TypeError('sqlPool: this PrismaClient was not made by createDb');
  return pool;
}

/**
 * Usage:
 *   metrics.gauge('db_pool_connections', '...', () => poolStats(db));
 */
export function poolStats(db: PrismaClient): PoolStats {
  const pool = pools.get(db);
  return pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : { total: 0, idle: 0, waiting: 0 };
}
