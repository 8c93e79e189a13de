/**
 * The adapters' and the password grant's reads by key as plain statements on the Prisma client's pool (sqlPool):
 * a Prisma query compiles its plan in WebAssembly on every call. Rows come back in Prisma's shape (Dates, jsonb,
 * text[]); TIMESTAMP(3) columns hold UTC and are read as epoch milliseconds; failures are pg's own errors, classified
 * by @heroes/db's one classifier. Writes are in write-by-key.ts.
 */
import { sqlPool, type Prisma, type PrismaClient } from '@heroes/db';

export interface StoredRow {
  payload: Prisma.JsonValue;
  expiresAt: Date | null;
  consumedAt: Date | null;
}

export interface ClientRow {
  id: string;
  hashedSecret: string | null;
  redirectUris: string[];
  allowedScopes: string[];
  /** Web origins for browser calls (clients/allowed-origins.ts). */
  allowedOrigins: string[];
  /** Token requests must carry a DPoP proof (RFC 9449 section 5.2). */
  requireDpop: boolean;
  /** Registered grant types (empty: the default of the client's kind, clients/grant-types.ts). */
  grantTypes: string[];
}

export type TokenTableName = 'access_tokens' | 'refresh_tokens' | 'authorization_codes';

const TIMES = `(extract(epoch FROM expires_at) * 1000)::float8 AS expires_ms, (extract(epoch FROM consumed_at) * 1000)::float8 AS consumed_ms`;

interface RawStoredRow {
  payload: Prisma.JsonValue;
  expires_ms: number | null;
  consumed_ms: number | null;
}

/** A token table's row by id (the token value's hash). */
export async function findTokenRow(db: PrismaClient, table: TokenTableName, id: string): Promise<StoredRow | undefined> {
  const { rows } = await sqlPool(db).query<RawStoredRow>({
    name: `adapter-find-${table}`,
    text: `SELECT payload, ${TIMES} FROM ${table} WHERE id = $1`,
    values: [id],
  });
  return rows[0] && toStoredRow(rows[0]);
}

/** An `oidc_records` row by (model, id). */
export async function findRecordRow(db: PrismaClient, model: string, id: string): Promise<StoredRow | undefined> {
  const { rows } = await sqlPool(db).query<RawStoredRow>({
    name: 'adapter-find-record',
    text: `SELECT payload, ${TIMES} FROM oidc_records WHERE model = $1 AND id = $2`,
    values: [model, id],
  });
  return rows[0] && toStoredRow(rows[0]);
}

/** An `oidc_records` row by (model, uid): the session of an interaction. */
export async function findRecordByUid(db: PrismaClient, model: string, uid: string): Promise<StoredRow | undefined> {
  const { rows } = await sqlPool(db).query<RawStoredRow>({
    name: 'adapter-find-record-by-uid',
    text: `SELECT payload, ${TIMES} FROM oidc_records WHERE model = $1 AND uid = $2 LIMIT 1`,
    values: [model, uid],
  });
  return rows[0] && toStoredRow(rows[0]);
}

/** An `oauth_clients` row by id, with the columns the provider's metadata needs. */
export async function findClientRow(db: PrismaClient, id: string): Promise<ClientRow | undefined> {
  const { rows } = await sqlPool(db).query<{ id: string; hashed_secret: string | null; redirect_uris: string[]; allowed_scopes: string[]; allowed_origins: string[]; grant_types: string[]; require_dpop: boolean }>({
    name: 'adapter-find-client',
    text: 'SELECT id, hashed_secret, redirect_uris, allowed_scopes, allowed_origins, grant_types, require_dpop FROM oauth_clients WHERE id = $1',
    values: [id],
  });
  const row = rows[0];
  return row && { id: row.id, hashedSecret: row.hashed_secret, redirectUris: row.redirect_uris, allowedScopes: row.allowed_scopes, allowedOrigins: row.allowed_origins, grantTypes: row.grant_types, requireDpop: row.require_dpop };
}

export interface UserRow {
  id: number;
  username: string;
  hashedPassword: string;
  /** Set by `auth users disable`: no sign-in, no token (accounts/). */
  disabled: boolean;
}

/** A `users` row by the key of its username (unique, @heroes/text-rules usernameKey) or by id, for the password grant and findAccount. */
export async function findUserRow(db: PrismaClient, key: { usernameKey: string } | { id: number }): Promise<UserRow | undefined> {
  const byName = 'usernameKey' in key;
  const { rows } = await sqlPool(db).query<{ id: number; username: string; hashed_password: string; disabled: boolean }>({
    name: byName ? 'find-user-by-key' : 'find-user-by-id',
    text: `SELECT id, username, hashed_password, disabled_at IS NOT NULL AS disabled FROM users WHERE ${byName ? 'username_key' : 'id'} = $1`,
    values: [byName ? key.usernameKey : key.id],
  });
  const row = rows[0];
  return row && { id: row.id, username: row.username, hashedPassword: row.hashed_password, disabled: row.disabled };
}

function toStoredRow(row: RawStoredRow): StoredRow {
  return {
    payload: row.payload,
    expiresAt: row.expires_ms === null ? null : new Date(row.expires_ms),
    consumedAt: row.consumed_ms === null ? null : new Date(row.consumed_ms),
  };
}
