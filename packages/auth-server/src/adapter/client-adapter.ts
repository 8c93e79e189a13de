/**
 * oidc-provider adapter for `Client`, read-only over the `oauth_clients` table the `auth` CLI writes (dynamic
 * registration is off: upsert/destroy are no-ops). Every request reads the row, so CLI changes apply at once; an id
 * outside VSCHAR (RFC 6749 Appendix A.1) is not found without a query.
 */
import { findClientRow, type PrismaClient } from '@heroes/db';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { isVschar } from '../clients/vschar.ts';
import { toClientMetadata } from './client-metadata.ts';

export class ClientAdapter implements Adapter {
  readonly #db: PrismaClient;
  readonly #introspectionOnlyId: string | undefined;

  constructor(db: PrismaClient, introspectionOnlyId?: string) {
    this.#db = db;
    this.#introspectionOnlyId = introspectionOnlyId;
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    if (!isVschar(id)) return undefined;
    const row = await findClientRow(this.#db, id);
    if (!row) return undefined;
    return toClientMetadata(row, { introspectionOnly: row.id === this.#introspectionOnlyId }) as AdapterPayload;
  }

  async upsert(): Promise<void> {}
  async findByUid(): Promise<undefined> { return undefined; }
  async findByUserCode(): Promise<undefined> { return undefined; }
  async consume(): Promise<void> {}
  async destroy(): Promise<void> {}
  async revokeByGrantId(): Promise<void> {}
}
