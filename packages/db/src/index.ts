export { createDb, poolStats, sqlPool, type CreateDbOptions, type PoolStats } from './client.ts';
export { createHeroRepository, escapeLike, HERO_SQL, type HeroRepository, type HeroRow, type PageQuery } from './repositories/heroes.ts';
export { createSqlPool, type Query, type SqlPool, type SqlPoolOptions, type SqlStatement } from './sql-pool.ts';
export { queryTimeouts, CLIENT_GRACE_MS, type QueryTimeouts } from './query-timeouts.ts';
export { createQueryTimeoutCheck, queryTimeoutProblem, type QueryTimeoutCheck, type QueryTimeoutCheckOptions, type ReadRows } from './query-timeout-check.ts';
export { PrismaClient, Prisma } from './generated/client.ts';
export type { User, OAuthClient, AccessToken, RefreshToken, AuthorizationCode, OidcRecord, Hero } from './generated/client.ts';
export { applyMigrations } from './migrate.ts';
export { mapUsernames, type UsernameMapping } from './map-usernames.ts';
export { isTransactionPooled, type TransactionPoolingOptions } from './transaction-pooling.ts';
export { hasPendingMigrations } from './pending-migrations.ts';
export { classifyDatabaseError, type DatabaseFailure, type DatabaseFailureKind } from './database-errors.ts';
export { describeDatabase, databaseAddress } from './describe-database.ts';
export { countInWindow, windowWaitSql, type Queryable, type WindowCount } from './address-window.ts';
export { claimProofIds, proofIdKey, type ProofIdClaim } from './dpop-proof-ids.ts';
export {
  AUDIT_EVENT_TYPES,
  auditedQueryable,
  auditInsertStatement,
  auditLogRecord,
  insertAuditEvent,
  insertAuditEventInTransaction,
  insertKeysRotatedOnce,
  isAuditEventType,
  listAuditEvents,
  withAuditEvent,
  type AuditEvent,
  type AuditEventType,
  type AuditFilter,
  type AuditRecord,
  type Statement,
} from './audit-events.ts';
