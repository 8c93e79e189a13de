/**
 * oidc-provider adapter for the `Client` model: read-only over the
 * `oauth_clients` table the `auth` CLI writes. Dynamic registration is off,
 * so upsert/destroy are never called by the library; they are no-ops.
 *
 * Rules enforced here:
 * - every request reads the row, so `auth set-scopes` and a client
 *   registered after start apply at once;
 * - the resource server's client is introspection-only (client-metadata.ts);
 * - an id outside VSCHAR (RFC 6749 Appendix A.1; the CLI registers no such
 *   id) is not found, without a database read (a NUL byte would make
 *   PostgreSQL fail the query);
 * - read through find-by-key.ts (a prepared pg statement): every token and
 *   introspection request reads one or two clients.
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
