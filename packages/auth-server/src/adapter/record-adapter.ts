/**
 * oidc-provider adapter for every other model (Grant, Session, Interaction,
 * ReplayDetection, ...): one generic `oidc_records` table keyed by
 * (model, id).
 *
 * Rules enforced here:
 * - `find` never returns an expired record; a consumed one carries `consumed`;
 * - `destroy` and `revokeByGrantId` never throw on missing rows;
 * - a looked-up id, uid or user code with a NUL or a lone surrogate
 *   (params/storable-text.ts) is not found, without a query;
 * - `find` reads through find-by-key.ts (a prepared pg statement).
 */
import type { Prisma, PrismaClient } from '@heroes/db';
import { isStorableText } from '../params/storable-text.ts';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { findRecordRow } from './find-by-key.ts';

export class RecordAdapter implements Adapter {
  readonly #db: PrismaClient;
  readonly #model: string;

  constructor(db: PrismaClient, model: string) {
    this.#db = db;
    this.#model = model;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const data = {
      grantId: payload.grantId ?? null,
      uid: payload.uid ?? null,
      payload: payload as Prisma.InputJsonValue,
      expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
    };
    await this.#db.oidcRecord.upsert({
      where: { model_id: { model: this.#model, id } },
      create: { model: this.#model, id, ...data },
      update: data,
    });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    if (!isStorableText(id)) return undefined;
    return toPayload(await findRecordRow(this.#db, this.#model, id));
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    if (!isStorableText(uid)) return undefined;
    const row = await this.#db.oidcRecord.findFirst({ where: { model: this.#model, uid } });
    return toPayload(row);
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    if (!isStorableText(userCode)) return undefined;
    const row = await this.#db.oidcRecord.findFirst({
      where: { model: this.#model, payload: { path: ['userCode'], equals: userCode } },
    });
    return toPayload(row);
  }

  async consume(id: string): Promise<void> {
    await this.#db.oidcRecord.updateMany({ where: { model: this.#model, id }, data: { consumedAt: new Date() } });
  }

  async destroy(id: string): Promise<void> {
    await this.#db.oidcRecord.deleteMany({ where: { model: this.#model, id } });
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.#db.oidcRecord.deleteMany({ where: { model: this.#model, grantId } });
  }
}

function toPayload(row: { payload: Prisma.JsonValue; expiresAt: Date | null; consumedAt: Date | null } | null | undefined): AdapterPayload | undefined {
  if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return undefined;
  const payload = { ...(row.payload as AdapterPayload) };
  if (row.consumedAt) payload.consumed = Math.floor(row.consumedAt.getTime() / 1000);
  return payload;
}
