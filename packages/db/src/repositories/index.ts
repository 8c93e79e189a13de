/** Every repository: one module per table or aggregate, each statement under the pool's naming rule (sql-pool.ts). */
export { createHeroRepository, escapeLike, HERO_SQL, type HeroRepository, type HeroRow, type PageQuery } from './heroes.ts';
export { findUserRow, insertUser, type NewUser, type UserRow } from './users.ts';
export {
  addRedirectUris, clientSecretHash, findClientRow, insertIntrospectionClient, insertPublicClient, registeredScopes, replaceClientSecret,
  type ClientRow,
} from './oauth-clients.ts';
export {
  addToTokenPayload, consumeTokenRow, deleteOtherAccessTokens, deleteTokenRows, findTokenRow, tokenRowGrantId, upsertTokenRow,
  type TokenRowData, type TokenTableName,
} from './tokens.ts';
export { consumeRecordRow, deleteGrantsOf, deleteRecordRows, findRecordByUid, findRecordRow, upsertRecordRow, type RecordRowData } from './oidc-records.ts';
export { readIntrospectionRow, type IntrospectionRow } from './introspection.ts';
export { unrecorded, UTC_NOW, type RecordWith, type StoredRow } from './stored-rows.ts';
export {
  beginAttempt, clearCounter, counterWaitMs, countInWindow, rememberSuccess,
  type AttemptKeys, type AttemptStanding, type ThrottleLimits, type WindowCount,
} from './login-throttles.ts';
export { findAnswer, lockKey, recordAnswer, type KeyedRequest, type StoredAnswer } from './idempotency-keys.ts';
export { purgeExpired, PURGE_BATCH_ROWS, THROTTLE_ROW_TTL_MS, type PurgeOptions, type PurgeResult } from './expired-rows.ts';
export { listen, notify } from './notifications.ts';
export { claimProofIds, proofIdKey, type ProofIdClaim } from './dpop-proof-ids.ts';
export {
  AUDIT_EVENT_TYPES, auditedQueryable, auditInsertStatement, auditLogRecord, insertAuditEvent, insertAuditEventWithPrisma,
  insertKeysRotatedOnce, isAuditEventType, listAuditEvents, withAuditEvent,
  type AuditEvent, type AuditEventType, type AuditFilter, type AuditRecord, type Statement,
} from './audit-events.ts';
