/**
 * The pool under each client createDb made, for the repositories' plain statements and for metrics. Types only
 * from Prisma: a repository that takes a pool never loads the Prisma client (@heroes/db/pg).
 */
import type { PrismaClient } from './generated/client.ts';
import type { SqlPool } from './sql-pool.ts';

/** Connection counts of a client's pool: open, idle, and callers waiting for one (for metrics). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

const pools = new WeakMap<PrismaClient, SqlPool>();

/** createDb's: `db` runs on `sql`. */
export function registerPool(db: PrismaClient, sql: SqlPool): void {
  pools.set(db, sql);
}

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
