/**
 * `@heroes/db/pg`: what a server that talks to PostgreSQL through a plain
 * pg pool needs from this package, without loading the Prisma client (its
 * WebAssembly query compiler and generated code are about 40 MB of RSS):
 * the data folder, secret files and the shared window counters.
 */
export { repoRoot, dataDir, resolveDataDir, dataDirFrom } from './paths.ts';
export { readOrCreateSecretFile } from './secret-file.ts';
export { countInWindow, windowWaitSql, type Queryable, type WindowCount } from './address-window.ts';
export { queryTimeouts, CLIENT_GRACE_MS, type QueryTimeouts } from './query-timeouts.ts';
export { createSqlPool, type Query, type SqlPool, type SqlPoolOptions, type SqlStatement } from './sql-pool.ts';
