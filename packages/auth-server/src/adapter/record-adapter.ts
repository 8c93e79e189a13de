/**
 * oidc-provider adapter for every other model (Grant, Session, Interaction, ReplayDetection, ...): one `oidc_records`
 * table keyed by (model, id). `find` never returns an expired record (a consumed one carries `consumed`); destroy and
 * revokeByGrantId never throw on missing rows; an id with a NUL or lone surrogate is not found without a query.
 */
import { consumeRecordRow, deleteRecordRows, findRecordByUid, findRecordByUserCode, findRecordRow, upsertRecordRow, type Prisma, type PrismaClient } from '@heroes/db';
import { isStorableText } from '../params/storable-text.ts';
import type { Adapter, AdapterPayload } from 'oidc-provider';

export class RecordAdapter implements Adapter {
  readonly #db: PrismaClient;
  readonly #model: string;

  constructor(db: PrismaClient, model: string) {
    this.#db = db;
    this.#model = model;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    await upsertRecordRow(this.#db, {
      model: this.#model,
      id,
      grantId: payload.grantId ?? null,
      uid: payload.uid ?? null,
      payload,
      expiresAtMs: expiresIn ? Date.now() + expiresIn * 1000 : null,
    });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    if (!isStorableText(id)) return undefined;
    return toPayload(await findRecordRow(this.#db, this.#model, id));
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    if (!isStorableText(uid)) return undefined;
    return toPayload(await findRecordByUid(this.#db, this.#model, uid));
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    if (!isStorableText(userCode)) return undefined;
    return toPayload(await findRecordByUserCode(this.#db, this.#model, userCode));
  }

  async consume(id: string): Promise<void> {
    await consumeRecordRow(this.#db, this.#model, id);
  }

  async destroy(id: string): Promise<void> {
    await deleteRecordRows(this.#db, this.#model, { id });
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await deleteRecordRows(this.#db, this.#model, { grantId });
  }
}

function toPayload(row: { payload: Prisma.JsonValue; expiresAt: Date | null; consumedAt: Date | null } | null | undefined): AdapterPayload | undefined {
  if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return undefined;
  const payload = { ...(row.payload as AdapterPayload) };
  if (row.consumedAt) payload.consumed = Math.floor(row.consumedAt.getTime() / 1000);
  return payload;
}
