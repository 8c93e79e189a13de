/**
 * The oauth_clients table: the provider's reads by id (plain statements on the Prisma client's pool, sqlPool), the
 * scope catalogue, and the resource server's built-in clients (its own confidential client and the public client
 * of the web app and /docs). The `auth` CLI's reads and changes are Prisma typed queries on a client or a transaction
 * (transactions.ts). An audited change takes an audited Queryable (audit-events.ts auditedQueryable): the event rides
 * on its statement.
 */
import { sqlPool } from '../client-pools.ts';
import type { OAuthClient, PrismaClient } from '../generated/client.ts';
import type { Queryable } from '../sql-pool.ts';
import type { Transaction } from '../transactions.ts';
import { UTC_NOW } from './stored-rows.ts';

export interface ClientRow {
  id: string;
  hashedSecret: string | null;
  redirectUris: string[];
  allowedScopes: string[];
  /** Web origins for browser calls (auth-server's clients/allowed-origins.ts). */
  allowedOrigins: string[];
  /** Token requests must carry a DPoP proof (RFC 9449 section 5.2). */
  requireDpop: boolean;
  /** Registered grant types (empty: the default of the client's kind). */
  grantTypes: string[];
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

/**
 * Every scope registered for some client but `exceptId`, and whether some such client has no scope of its own
 * beside `openid` (it gets the default scopes): one statement.
 */
export async function registeredScopes(db: PrismaClient, exceptId: string | undefined, openid: string): Promise<{ registered: string[]; unscoped: boolean }> {
  const { rows } = await sqlPool(db).query<{ registered: string[] | null; unscoped: boolean }>({
    name: 'clients-registered-scopes',
    text: `SELECT array(SELECT DISTINCT unnest(allowed_scopes) FROM oauth_clients WHERE id IS DISTINCT FROM $1) AS registered,
      EXISTS (SELECT 1 FROM oauth_clients WHERE id IS DISTINCT FROM $1 AND cardinality(array_remove(allowed_scopes, $2)) = 0) AS unscoped`,
    values: [exceptId ?? null, openid],
  });
  return { registered: rows[0]?.registered ?? [], unscoped: rows[0]?.unscoped === true };
}

/** The stored secret hash of client `id`: undefined when there is no such client, null for a public one. */
export async function clientSecretHash(db: Queryable, id: string): Promise<string | null | undefined> {
  const { rows } = await db.query({ name: 'clients-secret-hash', text: 'SELECT hashed_secret FROM oauth_clients WHERE id = $1', values: [id] });
  return rows[0] ? (rows[0]['hashed_secret'] as string | null) : undefined;
}

export async function replaceClientSecret(db: Queryable, id: string, hashedSecret: string): Promise<void> {
  await db.query({ name: 'clients-replace-secret', text: `UPDATE oauth_clients SET hashed_secret = $2, updated_at = ${UTC_NOW} WHERE id = $1`, values: [id, hashedSecret] });
}

/** A confidential client with no redirect URI and no scope (it may only introspect); a unique violation when it exists. */
export async function insertIntrospectionClient(db: Queryable, id: string, hashedSecret: string): Promise<void> {
  await db.query({
    name: 'clients-insert-introspection-client',
    text: `INSERT INTO oauth_clients (id, hashed_secret, created_at, updated_at) VALUES ($1, $2, ${UTC_NOW}, ${UTC_NOW})`,
    values: [id, hashedSecret],
  });
}

/** A public client, unless client `id` exists; true when this call created it. */
export async function insertPublicClient(db: Queryable, client: { id: string; redirectUris: string[]; scopes: string[] }): Promise<boolean> {
  const { rowCount } = await db.query({
    name: 'clients-insert-public-client',
    text: `INSERT INTO oauth_clients (id, hashed_secret, redirect_uris, allowed_scopes, created_at, updated_at)
      VALUES ($1, NULL, $2, $3, ${UTC_NOW}, ${UTC_NOW}) ON CONFLICT (id) DO NOTHING`,
    values: [client.id, client.redirectUris, client.scopes],
  });
  return rowCount === 1;
}

/** Adds those of `uris` client `id` lacks, in one statement (two replicas starting together add each once); answers the added ones. */
export async function addRedirectUris(db: Queryable, id: string, uris: string[]): Promise<string[]> {
  const { rows } = await db.query({
    name: 'clients-add-redirect-uris',
    text: `WITH current AS (SELECT redirect_uris FROM oauth_clients WHERE id = $1 FOR UPDATE),
        missing AS (SELECT array(SELECT u FROM unnest($2::text[]) AS u, current WHERE NOT (u = ANY (current.redirect_uris))) AS uris)
      UPDATE oauth_clients SET redirect_uris = redirect_uris || missing.uris, updated_at = ${UTC_NOW}
      FROM missing WHERE id = $1 AND cardinality(missing.uris) > 0
      RETURNING missing.uris AS added`,
    values: [id, uris],
  });
  return (rows[0]?.['added'] as string[] | undefined) ?? [];
}

/** What `auth clients add` stores: a row's columns; the timestamps are Prisma's defaults. */
export type NewClient = ClientRow;

/** The columns `auth clients` changes; `updated_at` follows. */
export type ClientChange = Partial<Pick<OAuthClient, 'hashedSecret' | 'redirectUris' | 'allowedScopes' | 'grantTypes' | 'requireDpop'>>;

/** Inserts the client (a taken id is a unique violation, classifyDatabaseError kind `unique`); answers the stored row. */
export function insertClient(db: Transaction, client: NewClient): Promise<OAuthClient> {
  return db.oAuthClient.create({ data: client });
}

/** Every client, every column, ordered by id. */
export function listClientRecords(db: Transaction): Promise<OAuthClient[]> {
  return db.oAuthClient.findMany({ orderBy: { id: 'asc' } });
}

/** Client `id` with every column (the CLI's), or null. */
export function findClientRecord(db: Transaction, id: string): Promise<OAuthClient | null> {
  return db.oAuthClient.findUnique({ where: { id } });
}

/** Whether client `id` is registered. */
export async function isClientRegistered(db: Transaction, id: string): Promise<boolean> {
  return (await db.oAuthClient.findUnique({ where: { id }, select: { id: true } })) !== null;
}

/** Changes client `id` (no such client: classifyDatabaseError kind `not_found`); answers the stored row. */
export function updateClientRecord(db: Transaction, id: string, change: ClientChange): Promise<OAuthClient> {
  return db.oAuthClient.update({ where: { id }, data: change });
}

/** Deletes client `id` (its tokens and codes go with it: the foreign keys cascade). */
export async function deleteClientRecord(db: Transaction, id: string): Promise<void> {
  await db.oAuthClient.delete({ where: { id } });
}
