/**
 * The token tables by key for oidc-provider's adapter, plain statements on the Prisma client's pool, rows in Prisma's
 * shape (stored-rows.ts), each id the SHA-256 of the value: an upsert replaces every column but `created_at`;
 * `consume` is conditional and says whether it won (one winner per race, RFC 9700 section 4.14.2); deletes say how
 * many rows went, so only real revocations are notified.
 * Kept on plain statements, not Prisma's typed queries: Prisma compiles each call's plan in WebAssembly (~0.7 ms CPU per call).
 * The `auth` CLI's bulk counts and deletes (per user, client or grant) are Prisma typed queries.
 */
import { sqlPool } from '../client-pools.ts';
import type { PrismaClient } from '../generated/client.ts';
import type { Transaction } from '../transactions.ts';
import { insertAuditEventWithPrisma, type AuditEvent } from './audit-events.ts';
import { READ_TIMES, toStoredRow, unrecorded, utcFromMs, type StoredRow } from './stored-rows.ts';

export type TokenTableName = 'access_tokens' | 'refresh_tokens' | 'authorization_codes';

export interface TokenRowData {
  id: string;
  clientId: string;
  userId: number | null;
  grantId: string | null;
  scope: string | null;
  payload: unknown;
  expiresAtMs: number;
  consumedAtMs: number | null;
}

/** A token table's row by id (the token value's hash). */
export async function findTokenRow(db: PrismaClient, table: TokenTableName, id: string): Promise<StoredRow | undefined> {
  const { rows } = await sqlPool(db).query({ name: `adapter-find-${table}`, text: `SELECT payload, ${READ_TIMES} FROM ${table} WHERE id = $1`, values: [id] });
  return rows[0] && toStoredRow(rows[0]);
}

/** `record`: an audit event written by the same statement (audit-events.ts). */
export async function upsertTokenRow(db: PrismaClient, table: TokenTableName, row: TokenRowData, record = unrecorded): Promise<void> {
  await record(sqlPool(db)).query({
    name: `adapter-upsert-${table}`,
    text: `INSERT INTO ${table} (id, client_id, user_id, grant_id, scope, payload, expires_at, consumed_at)
      VALUES ($1, $2, $3, $4, $5, $6::jsonb, ${utcFromMs(7)}, ${utcFromMs(8)})
      ON CONFLICT (id) DO UPDATE SET client_id = EXCLUDED.client_id, user_id = EXCLUDED.user_id,
        grant_id = EXCLUDED.grant_id, scope = EXCLUDED.scope, payload = EXCLUDED.payload,
        expires_at = EXCLUDED.expires_at, consumed_at = EXCLUDED.consumed_at`,
    values: [row.id, row.clientId, row.userId, row.grantId, row.scope, JSON.stringify(row.payload), row.expiresAtMs, row.consumedAtMs],
  });
}

/** Adds `members` to the row's stored payload (what the library's model does not store). */
export async function addToTokenPayload(db: PrismaClient, table: TokenTableName, id: string, members: Record<string, unknown>): Promise<void> {
  await sqlPool(db).query({
    name: `adapter-add-to-payload-${table}`,
    text: `UPDATE ${table} SET payload = payload || $2::jsonb WHERE id = $1`,
    values: [id, JSON.stringify(members)],
  });
}

/** Marks the row consumed unless it already was; true when this call did it. */
export async function consumeTokenRow(db: PrismaClient, table: TokenTableName, id: string): Promise<boolean> {
  const { rowCount } = await sqlPool(db).query({
    name: `adapter-consume-${table}`,
    text: `UPDATE ${table} SET consumed_at = ${utcFromMs(2)} WHERE id = $1 AND consumed_at IS NULL`,
    values: [id, Date.now()],
  });
  return rowCount === 1;
}

export async function tokenRowGrantId(db: PrismaClient, table: TokenTableName, id: string): Promise<string | undefined> {
  const { rows } = await sqlPool(db).query<{ grant_id: string | null }>({
    name: `adapter-grant-of-${table}`,
    text: `SELECT grant_id FROM ${table} WHERE id = $1`,
    values: [id],
  });
  return rows[0]?.grant_id ?? undefined;
}

/** Deletes the row with this id, or every row of this grant; answers how many went (`record` as for upsertTokenRow). */
export async function deleteTokenRows(db: PrismaClient, table: TokenTableName, by: { id: string } | { grantId: string }, record = unrecorded): Promise<number> {
  const byId = 'id' in by;
  const { rowCount } = await record(sqlPool(db)).query({
    name: `adapter-delete-${table}-by-${byId ? 'id' : 'grant'}`,
    text: `DELETE FROM ${table} WHERE ${byId ? 'id' : 'grant_id'} = $1`,
    values: [byId ? by.id : by.grantId],
  });
  return rowCount ?? 0;
}

/** Deletes the grant's access tokens but `keepId`; answers the ids that went. */
export async function deleteOtherAccessTokens(db: PrismaClient, grantId: string, keepId: string): Promise<string[]> {
  const { rows } = await sqlPool(db).query<{ id: string }>({
    name: 'adapter-delete-replaced-access-tokens',
    text: 'DELETE FROM access_tokens WHERE grant_id = $1 AND id <> $2 RETURNING id',
    values: [grantId, keepId],
  });
  return rows.map((row) => row.id);
}

/** Rows of the three token tables, per table. */
export interface TokenCounts {
  accessTokens: number;
  refreshTokens: number;
  authorizationCodes: number;
}

/** Deletes every access token, refresh token and code of the user or client; answers how many went of each. */
export async function deleteTokensOf(db: Transaction, owner: { userId: number } | { clientId: string }): Promise<TokenCounts> {
  const where = 'userId' in owner ? { userId: owner.userId } : { clientId: owner.clientId };
  return {
    accessTokens: (await db.accessToken.deleteMany({ where })).count,
    refreshTokens: (await db.refreshToken.deleteMany({ where })).count,
    authorizationCodes: (await db.authorizationCode.deleteMany({ where })).count,
  };
}

/** How many access tokens, refresh tokens and codes the client holds. */
export async function countTokensOf(db: Transaction, owner: { clientId: string }): Promise<TokenCounts> {
  const where = { clientId: owner.clientId };
  return {
    accessTokens: await db.accessToken.count({ where }),
    refreshTokens: await db.refreshToken.count({ where }),
    authorizationCodes: await db.authorizationCode.count({ where }),
  };
}

/**
 * Revokes a whole grant: its access tokens, refresh tokens, codes and Grant record, and `audit` when given, in one
 * transaction (a Prisma batch). Telling resource servers is the caller's, after it.
 */
export async function revokeGrantRows(db: PrismaClient, grantId: string, audit?: AuditEvent): Promise<void> {
  await db.$transaction([
    db.accessToken.deleteMany({ where: { grantId } }),
    db.refreshToken.deleteMany({ where: { grantId } }),
    db.authorizationCode.deleteMany({ where: { grantId } }),
    db.oidcRecord.deleteMany({ where: { model: 'Grant', id: grantId } }),
    ...(audit ? [insertAuditEventWithPrisma(db, audit)] : []),
  ]);
}
