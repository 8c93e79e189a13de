/**
 * The resource server's one database pool: @heroes/db's SqlPool on pg alone (the hot path skips Prisma's per-call
 * query compilation). An idle connection that dies is dropped and logged, never a crash; query() rethrows what pg
 * throws, for the one database-error classifier; the pool reconnects on the next call.
 */
import { createSqlPool, type Query as SqlQuery, type SqlPool } from '@heroes/db/pg';
import type { Logger } from 'pino';

export interface PoolOptions {
  databaseUrl: string;
  max: number;
  connectTimeoutMs: number;
  queryTimeoutMs: number;
  /** DB_PREPARED_STATEMENTS. */
  preparedStatements?: boolean;
  logger: Logger;
}

export type Database = SqlPool;
/** Runs one statement: the pool's, or a transaction's (Database.transaction). */
export type Query = SqlQuery;

/**
 * Usage:
 *   const database = createPool({ databaseUrl, max: 10, connectTimeoutMs: 3000, queryTimeoutMs: 5000, logger });
 *   const { rows } = await database.query({ name: 'heroes-list', text: 'SELECT ...' });
 */
export function createPool(options: PoolOptions): Database {
  return createSqlPool({
    url: options.databaseUrl,
    max: options.max,
    connectTimeoutMs: options.connectTimeoutMs,
    queryTimeoutMs: options.queryTimeoutMs,
    preparedStatements: options.preparedStatements ?? false,
    applicationName: 'resource-server',
    onIdleConnectionError: (err) => options.logger.warn({ err }, 'idle database connection lost'),
  });
}
