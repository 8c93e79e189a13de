/**
 * oidc-provider's other records (Grant, Session, Interaction, …) in the one oidc_records table, keyed by
 * (model, id), for its adapter: plain statements on the Prisma client's pool (sqlPool) under its naming rule,
 * rows in Prisma's shape (stored-rows.ts). An upsert replaces every stored column but `created_at`.
 * Kept on plain statements, not Prisma's typed queries: Prisma compiles each call's plan in WebAssembly (~0.7 ms CPU per call);
 * the rare lookup by a payload member (the device flow's user code) is a typed query.
 */
import { sqlPool } from '../client-pools.ts';
import type { PrismaClient } from '../generated/client.ts';
import { READ_TIMES, toStoredRow, utcFromMs, type StoredRow } from './stored-rows.ts';

export interface RecordRowData {
  model: string;
  id: string;
  grantId: string | null;
  uid: string | null;
  payload: unknown;
  expiresAtMs: number | null;
}

/** An `oidc_records` row by (model, id). */
export async function findRecordRow(db: PrismaClient, model: string, id: string): Promise<StoredRow | undefined> {
  const { rows } = await sqlPool(db).query({
    name: 'adapter-find-record',
    text: `SELECT payload, ${READ_TIMES} FROM oidc_records WHERE model = $1 AND id = $2`,
    values: [model, id],
  });
  return rows[0] && toStoredRow(rows[0]);
}

/** The first `oidc_records` row of `model` whose payload's `userCode` equals `userCode` (jsonb equality). */
export async function findRecordByUserCode(db: PrismaClient, model: string, userCode: string): Promise<StoredRow | undefined> {
  const row = await db.oidcRecord.findFirst({
    where: { model, payload: { path: ['userCode'], equals: userCode } },
    select: { payload: true, expiresAt: true, consumedAt: true },
  });
  return row ?? undefined;
}

/** An `oidc_records` row by (model, uid): the session of an interaction. */
export async function findRecordByUid(db: PrismaClient, model: string, uid: string): Promise<StoredRow | undefined> {
  const { rows } = await sqlPool(db).query({
    name: 'adapter-find-record-by-uid',
    text: `SELECT payload, ${READ_TIMES} FROM oidc_records WHERE model = $1 AND uid = $2 LIMIT 1`,
    values: [model, uid],
  });
  return rows[0] && toStoredRow(rows[0]);
}

export async function upsertRecordRow(db: PrismaClient, row: RecordRowData): Promise<void> {
  await sqlPool(db).query({
    name: 'adapter-upsert-record',
    text: `INSERT INTO oidc_records (model, id, grant_id, uid, payload, expires_at)
      VALUES ($1, $2, $3, $4, $5::jsonb, ${utcFromMs(6)})
      ON CONFLICT (model, id) DO UPDATE SET grant_id = EXCLUDED.grant_id, uid = EXCLUDED.uid,
        payload = EXCLUDED.payload, expires_at = EXCLUDED.expires_at`,
    values: [row.model, row.id, row.grantId, row.uid, JSON.stringify(row.payload), row.expiresAtMs],
  });
}

export async function consumeRecordRow(db: PrismaClient, model: string, id: string): Promise<void> {
  await sqlPool(db).query({
    name: 'adapter-consume-record',
    text: `UPDATE oidc_records SET consumed_at = ${utcFromMs(3)} WHERE model = $1 AND id = $2`,
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

/** Deletes the Grant records of a client or of a user (inside the caller's Prisma transaction); answers how many went. */
export function deleteGrantsOf(tx: Pick<PrismaClient, '$executeRaw'>, owner: { clientId: string } | { accountId: string }): Promise<number> {
  return 'clientId' in owner
    ? tx.$executeRaw`DELETE FROM oidc_records WHERE model = 'Grant' AND payload->>'clientId' = ${owner.clientId}`
    : tx.$executeRaw`DELETE FROM oidc_records WHERE model = 'Grant' AND payload->>'accountId' = ${owner.accountId}`;
}
