/** Every repository: one module per table or aggregate, each statement under the pool's naming rule (sql-pool.ts). */
export { createHeroRepository, escapeLike, HERO_SQL, type HeroRepository, type HeroRow, type PageQuery } from './heroes.ts';
export {
  deleteUserRow, findUserByNameOrKey, findUserRow, insertUser, listUsersWithLocks, setUserDisabledAt, type NewUser, type UserListing, type UserRow,
} from './users.ts';
export {
  addRedirectUris, isClientRegistered, clientSecretHash, deleteClientRecord, findClientRecord, findClientRow, insertClient, insertIntrospectionClient,
  insertPublicClient, listClientRecords, registeredScopes, replaceClientSecret, updateClientRecord,
  type ClientChange, type ClientRow, type NewClient,
} from './oauth-clients.ts';
export {
  addToTokenPayload, consumeTokenRow, countTokensOf, deleteOtherAccessTokens, deleteTokenRows, deleteTokensOf, findTokenRow, revokeGrantRows,
  tokenRowGrantId, upsertTokenRow,
  type TokenCounts, type TokenRowData, type TokenTableName,
} from './tokens.ts';
export {
  consumeRecordRow, deleteGrantsOf, deleteRecordRows, findRecordByUid, findRecordByUserCode, findRecordRow, upsertRecordRow, type RecordRowData,
} from './oidc-records.ts';
export { readIntrospectionRow, type IntrospectionRow } from './introspection.ts';
export { unrecorded, UTC_NOW, type RecordWith, type StoredRow } from './stored-rows.ts';
export {
  beginAttempt, clearAccountCounters, clearCounter, counterWaitMs, countInWindow, rememberSuccess,
  type AttemptKeys, type AttemptStanding, type ThrottleLimits, type WindowCount,
} from './login-throttles.ts';
export { findAnswer, lockKey, recordAnswer, type KeyedRequest, type StoredAnswer } from './idempotency-keys.ts';
export { purgeExpired, purgePauseMs, PURGE_BATCH_ROWS, PURGE_WAL_BYTES_PER_SECOND, THROTTLE_ROW_TTL_MS, type PurgeBatch, type PurgeOptions, type PurgeResult } from './expired-rows.ts';
export { listen, notify } from './notifications.ts';
export { claimProofIds, proofIdKey, type ProofIdClaim } from './dpop-proof-ids.ts';
export { claimEdgeProofIds, type EdgeProofIdClaim } from './dpop-edge-proof-ids.ts';
export {
  AUDIT_EVENT_TYPES, auditedQueryable, auditInsertStatement, auditLogRecord, insertAuditEvent, insertAuditEventWithPrisma,
  insertKeysRotatedOnce, isAuditEventType, listAuditEvents, withAuditEvent,
  type AuditEvent, type AuditEventType, type AuditFilter, type AuditRecord, type Statement,
} from './audit-events.ts';
