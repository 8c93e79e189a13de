/**
 * `@heroes/db/pg`: what a server talking to PostgreSQL through a plain pg pool needs, without loading the Prisma
 * client (its WebAssembly compiler and generated code are about 40 MB of RSS): window counters, query time limits,
 * the transaction-pooler check, the one pool (sql-pool.ts) and the resource server's repositories.
 */
export { countInWindow, windowWaitSql, type Queryable, type WindowCount } from './address-window.ts';
export { queryTimeouts, CLIENT_GRACE_MS, type QueryTimeouts } from './query-timeouts.ts';
export { claimProofIds, proofIdKey, type ProofIdClaim } from './dpop-proof-ids.ts';
export { createSqlPool, type Query, type SqlPool, type SqlPoolOptions, type SqlStatement } from './sql-pool.ts';
export { createQueryTimeoutCheck, queryTimeoutProblem, type QueryTimeoutCheck, type QueryTimeoutCheckOptions, type ReadRows } from './query-timeout-check.ts';
export { isTransactionPooled, type TransactionPoolingOptions } from './transaction-pooling.ts';
export { createHeroRepository, escapeLike, HERO_SQL, type HeroRepository, type HeroRow, type PageQuery } from './repositories/heroes.ts';
