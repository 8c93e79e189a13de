/**
 * The Prisma client on the pg driver adapter (no native engine, works offline), over the process's one pool
 * (sql-pool.ts): the adapter sends its statements unnamed, as sqlPool() does, so both pass through a
 * transaction pooler.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client.ts';
import { registerPool } from './client-pools.ts';
import { createSqlPool } from './sql-pool.ts';

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
  registerPool(client, sql);
  return client;
}
