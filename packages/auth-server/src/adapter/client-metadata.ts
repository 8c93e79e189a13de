/**
 * An `oauth_clients` row (written by the `auth` CLI) as oidc-provider client
 * metadata.
 *
 * Rules enforced here:
 * - a client with a secret authenticates with it (Basic or form body); the
 *   stored bcrypt hash stands in for `client_secret` and is only ever
 *   compared through compareClientSecret (see clients/secret-cache.ts);
 *   a client without a secret is public (`none`);
 * - its grant types are the registered ones or the default of its kind
 *   (clients/grant-types.ts): a public client never gets a refresh token
 *   or client credentials;
 * - the code flow (response type `code`) needs a registered redirect URI
 *   and the authorization_code grant; every registered URI is listed (the
 *   library compares exactly);
 * - what the client may be granted (scopes/allowed-scopes.ts: none
 *   registered → the hero scopes, written out) travels as the custom
 *   property `allowed_scopes`, not as `scope`: the library would check a
 *   `scope` against its static scope list, which holds only `openid` (the
 *   catalogue is ours, scopes/scope-catalogue.ts), and our grants decide
 *   scopes themselves;
 * - the resource server's own client (RESOURCE_SERVER_CLIENT_ID) exists only
 *   to introspect: no grant type, no response type, no redirect URI, so the
 *   token endpoint refuses every grant for it (see
 *   middleware/unauthorized-client.ts) while introspection, which is client
 *   authentication only, keeps working;
 * - a redirect URI with a private-use scheme (RFC 8252 section 7.1, such as
 *   `com.example.app:/callback`) makes the client `native`: oidc-provider
 *   validates redirect URIs per application type, and a `web` client may
 *   only register http(s) ones. Only http(s) URIs keep the client `web`
 *   (loopback http URIs, RFC 8252 section 7.3, are valid for both);
 * - `allowed_origins`: the web origins whose pages may call the token,
 *   revoke and introspect endpoints (clients/allowed-origins.ts), read by
 *   the provider's clientBasedCORS (provider/client-cors.ts).
 */
import type { OAuthClient } from '@heroes/db';
import type { ClientMetadata } from 'oidc-provider';
import { effectiveOrigins } from '../clients/allowed-origins.ts';
import { effectiveGrantTypes } from '../clients/grant-types.ts';
import { ALLOWED_SCOPES_PROPERTY, allowedScopes } from '../scopes/allowed-scopes.ts';

/** The client metadata property that carries the allowed web origins. */
export const ALLOWED_ORIGINS = 'allowed_origins';

export interface ClientMetadataOptions {
  /** True for the resource server's client: it may introspect, never obtain a token. */
  introspectionOnly?: boolean;
}

export function toClientMetadata(
  row: Pick<OAuthClient, 'id' | 'hashedSecret' | 'redirectUris' | 'allowedScopes'> & Partial<Pick<OAuthClient, 'allowedOrigins' | 'grantTypes'>>,
  { introspectionOnly = false }: ClientMetadataOptions = {},
): ClientMetadata {
  const confidential = row.hashedSecret !== null && row.hashedSecret !== '';
  const redirectUris = introspectionOnly ? [] : row.redirectUris;
  const grantTypes = introspectionOnly ? [] : effectiveGrantTypes({ id: row.id, registered: row.grantTypes ?? [], confidential });
  const metadata: ClientMetadata = {
    client_id: row.id,
    token_endpoint_auth_method: confidential ? 'client_secret_basic' : 'none',
    grant_types: grantTypes,
    response_types: redirectUris.length > 0 && grantTypes.includes('authorization_code') ? ['code'] : [],
    redirect_uris: [...redirectUris],
    application_type: redirectUris.every(isWebUri) ? 'web' : 'native',
    [ALLOWED_ORIGINS]: introspectionOnly ? [] : effectiveOrigins(row.allowedOrigins ?? [], redirectUris),
  };
  if (confidential) metadata.client_secret = row.hashedSecret as string;
  metadata[ALLOWED_SCOPES_PROPERTY] = allowedScopes(row.allowedScopes);
  return metadata;
}

/** True for an http(s) URI (`web`); false for a private-use scheme (`native`). */
function isWebUri(uri: string): boolean {
  return /^https?:/i.test(uri);
}
