/**
 * The OAuth client registry, plain functions over @heroes/db's repositories for the `auth` CLI: every input validated before anything is
 * written; a secret stored only as a bcrypt hash, never returned; a duplicate found by the primary key (race-free);
 * each change one transaction with its audit event, removal and rotation notifying resource servers on commit.
 */
import {
  countTokensOf, deleteClientRecord, findClientRecord, inTransaction, insertClient, listClientRecords, updateClientRecord,
  type ClientChange, type OAuthClient, type PrismaClient,
} from '@heroes/db';
import { classifyDatabaseError } from '@heroes/db/database-errors';
import { formatScopes } from '@heroes/oauth-scopes';
import { notifyTokensRevoked } from '../notify/revocation-notifier.ts';
import { auditStatement } from '../audit/prisma-audit.ts';
import { clientExists, clientNotFound, invalidInput } from './client-registry-error.ts';
import { validateClientId } from './client-id.ts';
import { generateClientSecret, hashClientSecret } from './client-secret.ts';
import { validateRedirectUris } from './redirect-uri.ts';
import { validateAllowedOrigins } from './allowed-origins.ts';
import { parseScopes } from './parse-scopes.ts';
import { checkGrantTypesForKind, parseGrantTypes } from './grant-types.ts';

/** What may be shown about a client: its row (fields documented in prisma/schema.prisma) without the secret's hash. */
export type ClientSummary = Omit<OAuthClient, 'hashedSecret'> & {
  /** True when the client has no secret (RFC 6749 2.1 "public"). */
  isPublic: boolean;
};

export interface AddClientInput {
  id: string;
  /** Omitted (or undefined) for a public client. */
  secret?: string | undefined;
  /** Redirect URIs, each matched exactly in the code flow (redirect-uri.ts). */
  redirectUris?: readonly string[] | undefined;
  /** A space-separated list (RFC 6749 3.3) or already split tokens. */
  allowedScopes?: string | readonly string[] | undefined;
  /** Web origins for browser calls to token/revoke/introspect (docs/oauth.md). */
  allowedOrigins?: readonly string[] | undefined;
  /** A space-separated list or split values (grant-types.ts); omitted or empty: the default of the client's kind. */
  grantTypes?: string | readonly string[] | undefined;
  /** Every token request must carry a DPoP proof (docs/oauth.md). Default false. */
  requireDpop?: boolean | undefined;
}

/**
 * Registers a client. Throws `Client ID 'x' already exists.` for a taken id.
 *
 * Usage: `await addClient(db, { id: 'web', secret: 's3cret', allowedScopes: 'heroes' })`
 */
export async function addClient(db: PrismaClient, input: AddClientInput): Promise<ClientSummary> {
  const id = validateClientId(input.id);
  const allowedScopes = toScopes(input.allowedScopes);
  const redirectUris = validateRedirectUris(input.redirectUris ?? []);
  const allowedOrigins = validateAllowedOrigins(input.allowedOrigins ?? []);
  const grantTypes = parseGrantTypes(input.grantTypes ?? []);
  checkGrantTypesForKind(grantTypes, input.secret !== undefined);
  const hashedSecret = input.secret === undefined ? null : await hashClientSecret(input.secret);
  try {
    const row = await inTransaction(db, async (tx) => {
      const added = await insertClient(tx, { id, hashedSecret, redirectUris, allowedScopes, allowedOrigins, grantTypes, requireDpop: input.requireDpop === true });
      await auditStatement(tx, { type: 'client.added', clientId: id, reason: hashedSecret === null ? 'public client' : 'confidential client' });
      return added;
    });
    return toSummary(row);
  } catch (err) {
    if (classifyDatabaseError(err)?.kind === 'unique') throw clientExists(id, err);
    throw err;
  }
}

/** Every client, ordered by id. Usage: `for (const c of await listClients(db)) ...` */
export async function listClients(db: PrismaClient): Promise<ClientSummary[]> {
  const rows = await listClientRecords(db);
  return rows.map(toSummary);
}

/** One client, or `Client ID 'x' does not exist.` */
export async function getClient(db: PrismaClient, id: string): Promise<ClientSummary> {
  const row = await findClientRecord(db, id);
  if (!row) throw clientNotFound(id);
  return toSummary(row);
}

export interface RemovedClient {
  client: ClientSummary;
  /** Rows deleted with the client. */
  deleted: { accessTokens: number; refreshTokens: number; authorizationCodes: number };
}

/** Deletes a client, its tokens and codes, and notifies resource servers. */
export async function removeClient(db: PrismaClient, id: string): Promise<RemovedClient> {
  return inTransaction(db, async (tx) => {
    const row = await findClientRecord(tx, id);
    if (!row) throw clientNotFound(id);
    const deleted = await countTokensOf(tx, { clientId: id });
    await deleteClientRecord(tx, id);
    await notifyTokensRevoked(tx, { clientId: id });
    await auditStatement(tx, { type: 'client.removed', clientId: id, reason: `${deleted.accessTokens} access token(s), ${deleted.refreshTokens} refresh token(s), ${deleted.authorizationCodes} code(s) deleted with it` });
    return { client: toSummary(row), deleted };
  });
}

/** Replaces the allowed scopes; an empty list or string clears them. */
export async function setScopes(db: PrismaClient, id: string, allowedScopes: string | readonly string[]): Promise<ClientSummary> {
  return updateClient(db, id, { allowedScopes: toScopes(allowedScopes) }, 'allowed scopes set');
}

/** Replaces the redirect URIs; an empty list clears them (no code flow). */
export async function setRedirectUris(db: PrismaClient, id: string, redirectUris: readonly string[]): Promise<ClientSummary> {
  return updateClient(db, id, { redirectUris: validateRedirectUris(redirectUris) }, 'redirect URIs set');
}

/** Whether the client's token requests must carry a DPoP proof; tokens already issued are unchanged. */
export async function setRequireDpop(db: PrismaClient, id: string, requireDpop: boolean): Promise<ClientSummary> {
  return updateClient(db, id, { requireDpop }, requireDpop ? 'DPoP required' : 'DPoP optional');
}

/**
 * Replaces the grant types; an empty list or string returns the client to
 * the default of its kind. A public client is refused refresh_token and
 * client_credentials. Tokens already issued stay valid until they expire or
 * are revoked; the next token request is judged by the new list.
 */
export async function setGrantTypes(db: PrismaClient, id: string, grantTypes: string | readonly string[]): Promise<ClientSummary> {
  const parsed = parseGrantTypes(grantTypes);
  return inTransaction(db, async (tx) => {
    const row = await findClientRecord(tx, id);
    if (!row) throw clientNotFound(id);
    checkGrantTypesForKind(parsed, row.hashedSecret !== null);
    const updated = await updateClientRecord(tx, id, { grantTypes: parsed });
    await auditStatement(tx, { type: 'client.changed', clientId: id, reason: 'grant types set' });
    return toSummary(updated);
  });
}

export interface RotateSecretOptions {
  /** Use this secret instead of generating one. */
  secret?: string | undefined;
  /** Allow giving a secret to a public client (making it confidential). Default false. */
  makeConfidential?: boolean | undefined;
}

/**
 * Replaces a client's secret with a new one and returns it (the only time
 * it can be seen). Existing tokens stay valid; resource servers are notified.
 * A public client is refused unless `makeConfidential` is set.
 */
export async function rotateSecret(db: PrismaClient, id: string, options: RotateSecretOptions = {}): Promise<{ client: ClientSummary; secret: string }> {
  const secret = options.secret ?? generateClientSecret();
  const hashedSecret = await hashClientSecret(secret);
  const client = await inTransaction(db, async (tx) => {
    const row = await findClientRecord(tx, id);
    if (!row) throw clientNotFound(id);
    if (row.hashedSecret === null && !options.makeConfidential) {
      throw invalidInput(`Client ID '${id}' is a public client (no secret); pass --make-confidential to give it one.`);
    }
    const updated = await updateClientRecord(tx, id, { hashedSecret });
    await notifyTokensRevoked(tx, { clientId: id });
    await auditStatement(tx, { type: 'client.secret_rotated', clientId: id, reason: row.hashedSecret === null ? 'made confidential' : 'new secret' });
    return updated;
  });
  return { client: toSummary(client), secret };
}

async function updateClient(db: PrismaClient, id: string, data: Pick<ClientChange, 'allowedScopes' | 'redirectUris' | 'requireDpop'>, what: string): Promise<ClientSummary> {
  try {
    const row = await inTransaction(db, async (tx) => {
      const updated = await updateClientRecord(tx, id, data);
      await auditStatement(tx, { type: 'client.changed', clientId: id, reason: what });
      return updated;
    });
    return toSummary(row);
  } catch (err) {
    if (classifyDatabaseError(err)?.kind === 'not_found') throw clientNotFound(id);
    throw err;
  }
}

function toScopes(scopes: string | readonly string[] | undefined): string[] {
  if (scopes === undefined) return [];
  return parseScopes(typeof scopes === 'string' ? scopes : formatScopes(scopes));
}

function toSummary({ hashedSecret, ...row }: OAuthClient): ClientSummary {
  return { ...row, isPublic: hashedSecret === null };
}
