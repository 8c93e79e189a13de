export { createDb, poolStats, sqlPool, type CreateDbOptions, type PoolStats } from './client.ts';
export { PrismaClient, Prisma } from './generated/client.ts';
export type { User, OAuthClient, AccessToken, RefreshToken, AuthorizationCode, OidcRecord, Hero } from './generated/client.ts';
export { resolveDatabaseUrl, type ResolvedDatabase } from './resolve-database-url.ts';
export { applyMigrations } from './migrate.ts';
export { repoRoot, dataDir, migrationsDir, resolveDataDir } from './paths.ts';
export { readOrCreateSecretFile } from './secret-file.ts';
export { startEmbeddedPostgres, EmbeddedPostgresError, type EmbeddedServer } from './embedded-postgres.ts';
export { describeDatabase, databaseAddress } from './describe-database.ts';
