/**
 * An `oauth_clients` row as oidc-provider client metadata: secret (compared only through clients/secret-cache.ts) or
 * `none`; its grant types; every redirect URI (a private-use scheme makes it `native`, RFC 8252); allowed scopes as
 * `allowed_scopes`, not `scope` (our grants decide scopes); `allowed_origins`; `--require-dpop` as
 * `dpop_bound_access_tokens`. The resource server's own client has no grant or response type: introspection only.
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
  row: Pick<OAuthClient, 'id' | 'hashedSecret' | 'redirectUris' | 'allowedScopes'> & Partial<Pick<OAuthClient, 'allowedOrigins' | 'grantTypes' | 'requireDpop'>>,
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
    dpop_bound_access_tokens: row.requireDpop === true,
  };
  if (confidential) metadata.client_secret = row.hashedSecret as string;
  metadata[ALLOWED_SCOPES_PROPERTY] = allowedScopes(row.allowedScopes);
  return metadata;
}

/** True for an http(s) URI (`web`); false for a private-use scheme (`native`). */
function isWebUri(uri: string): boolean {
  return /^https?:/i.test(uri);
}
