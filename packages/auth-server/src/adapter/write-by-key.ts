/**
 * The adapters' writes by key as plain statements on the Prisma client's pool, beside find-by-key.ts: timestamps
 * written as UTC whatever the process's zone; an upsert replaces every column but `created_at`; `consume` is
 * conditional and says whether it won (one winner per race, RFC 9700 section 4.14.2); deletes say how many rows
 * went, so only real revocations are notified.
 */
import { sqlPool, type PrismaClient } from '@heroes/db';
import type { RecordWith } from '../audit/audit-trail.ts';
import type { TokenTableName } from './find-by-key.ts';

/** `$n` (epoch ms or null) as a UTC TIMESTAMP(3). */
const utc = (n: number) => `CASE WHEN $${n}::float8 IS NULL THEN NULL ELSE to_timestamp($${n}::float8 / 1000) AT TIME ZONE 'UTC' END`;

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

const unrecorded: RecordWith = (db) => db;

/** `record`: an audit event written by the same statement (audit/audit-trail.ts). */
export async function upsertTokenRow(db: PrismaClient, table: TokenTableName, row: TokenRowData, record = unrecorded): Promise<void> {
  await record(sqlPool(db)).query({
    name: `adapter-upsert-${table}`,
    text: `INSERT INTO ${table} (id, client_id, user_id, grant_id, scope, payload, expires_at, consumed_at)
      VALUES ($1, $2, $3, $4, $5, $6::jsonb, ${utc(7)}, ${utc(8)})
      ON CONFLICT (id) DO UPDATE SET client_id = EXCLUDED.client_id, user_id = EXCLUDED.user_id,
        grant_id = EXCLUDED.grant_id, scope = EXCLUDED.scope, payload = EXCLUDED.payload,
        expires_at = EXCLUDED.expires_at, consumed_at = EXCLUDED.consumed_at`,
    values: [row.id, row.clientId, row.userId, row.grantId, row.scope, JSON.stringify(row.payload), row.expiresAtMs, row.consumedAtMs],
  });
}

/** Adds `members` to the row's stored payload (what the library's model does not store, e.g. provider/code-redirect-uri.ts). */
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
    text: `UPDATE ${table} SET consumed_at = ${utc(2)} WHERE id = $1 AND consumed_at IS NULL`,
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
  const { rowCount } = await (record(sqlPool(db)) as ReturnType<typeof sqlPool>).query({
    name: `adapter-delete-${table}-by-${byId ? 'id' : 'grant'}`,
    text: `DELETE FROM ${table} WHERE ${byId ? 'id' : 'grant_id'} = $1`,
    values: [byId ? by.id : by.grantId],
  });
  return rowCount ?? 0;
}

export interface RecordRowData {
  model: string;
  id: string;
  grantId: string | null;
  uid: string | null;
  payload: unknown;
  expiresAtMs: number | null;
}

export async function upsertRecordRow(db: PrismaClient, row: RecordRowData): Promise<void> {
  await sqlPool(db).query({
    name: 'adapter-upsert-record',
    text: `INSERT INTO oidc_records (model, id, grant_id, uid, payload, expires_at)
      VALUES ($1, $2, $3, $4, $5::jsonb, ${utc(6)})
      ON CONFLICT (model, id) DO UPDATE SET grant_id = EXCLUDED.grant_id, uid = EXCLUDED.uid,
        payload = EXCLUDED.payload, expires_at = EXCLUDED.expires_at`,
    values: [row.model, row.id, row.grantId, row.uid, JSON.stringify(row.payload), row.expiresAtMs],
  });
}

export async function consumeRecordRow(db: PrismaClient, model: string, id: string): Promise<void> {
  await sqlPool(db).query({
    name: 'adapter-consume-record',
    text: `UPDATE oidc_records SET consumed_at = ${utc(3)} WHERE model = $1 AND id = $2`,
    values: [model, id, Date.now()],
  });
}

/** Deletes the record with this id, or every record of this grant. */
export async function deleteRecordRows(db: PrismaClient, model: string, by: { id: string } | { grantId: string }): Promise<void> {
  const byId = 'id' in by;
  await sqlPool(db).query({
    name: `adapter-delete-record-by-${byId ? 'id' : 'grant'}`,
    text: `DELETE FROM oidc_records WHERE model = $1 AND ${byId ? 'id' : 'grant_id'} = $2`,
    values: [model, byId ? by.id : by.grantId],
  });
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
