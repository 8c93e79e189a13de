/**
 * `@heroes/db/pg`: what a server on a plain pg pool needs, without loading the Prisma client (its WebAssembly
 * query compiler and generated code are about 40 MB of RSS): the one pool (sql-pool.ts), the query time limits,
 * the transaction-pooler check and the repositories (their Prisma-client functions are never called there).
 */
export { createSqlPool, type Query, type Queryable, type SqlPool, type SqlPoolOptions, type SqlStatement } from './sql-pool.ts';
export { queryTimeouts, CLIENT_GRACE_MS, type QueryTimeouts } from './query-timeouts.ts';
export { createQueryTimeoutCheck, ping, queryTimeoutProblem, type QueryTimeoutCheck, type QueryTimeoutCheckOptions } from './query-timeout-check.ts';
export { isTransactionPooled, type TransactionPoolingOptions } from './transaction-pooling.ts';
export * from './repositories/index.ts';
