/**
 * @heroes/db: the client (createDb: Prisma on the process's one pool), the repositories (repositories/), the
 * classifier of database failures, and the migrations. `@heroes/db/pg` is the same without the Prisma client.
 */
export { createDb, type CreateDbOptions } from './client.ts';
export { inTransaction, type Transaction } from './transactions.ts';
export { poolStats, sqlPool, type PoolStats } from './client-pools.ts';
export { createSqlPool, type Query, type Queryable, type SqlPool, type SqlPoolOptions, type SqlStatement } from './sql-pool.ts';
export { queryTimeouts, CLIENT_GRACE_MS, type QueryTimeouts } from './query-timeouts.ts';
export { createQueryTimeoutCheck, ping, queryTimeoutProblem, type QueryTimeoutCheck, type QueryTimeoutCheckOptions } from './query-timeout-check.ts';
export { PrismaClient, Prisma } from './generated/client.ts';
export type { User, OAuthClient, AccessToken, RefreshToken, AuthorizationCode, OidcRecord, Hero } from './generated/client.ts';
export { applyMigrations } from './migrate.ts';
export { mapUsernames, type UsernameMapping } from './map-usernames.ts';
export { isTransactionPooled, type TransactionPoolingOptions } from './transaction-pooling.ts';
export { hasPendingMigrations } from './pending-migrations.ts';
export { classifyDatabaseError, type DatabaseFailure, type DatabaseFailureKind } from './database-errors.ts';
export { describeDatabase, databaseAddress } from './describe-database.ts';
export * from './repositories/index.ts';
