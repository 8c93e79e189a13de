/**
 * A client as `--json` output shows it (get-client, list-clients, and the
 * `client` member of what the other commands print). Never a secret or
 * hash: ClientSummary does not carry them.
 *
 * Registered values and what applies are both given: a client registered
 * without scopes may be granted the hero scopes (scopes/allowed-scopes.ts),
 * one without origins is called from its redirect URIs' origins
 * (clients/allowed-origins.ts), one without grant types uses the default
 * of its kind (clients/grant-types.ts; the resource server's own client
 * only introspects: no grant at all).
 */
import { effectiveGrantTypes, effectiveOrigins, type ClientSummary } from '../clients/index.ts';
import { allowedScopes } from '../scopes/allowed-scopes.ts';
import { cliSetting } from './cli-settings.ts';

export interface ClientJson {
  id: string;
  type: 'public' | 'confidential';
  redirectUris: string[];
  /** As registered; empty: the defaults in effectiveScopes apply. */
  allowedScopes: string[];
  /** What the client may be granted. */
  effectiveScopes: string[];
  /** As registered; empty: the origins of the redirect URIs apply. */
  allowedOrigins: string[];
  /** The web origins whose pages may call the token, revoke and introspect endpoints. */
  effectiveOrigins: string[];
  /** As registered; empty: the default of the client's kind applies. */
  grantTypes: string[];
  /** The grant types the token endpoint accepts from this client. */
  effectiveGrantTypes: string[];
  createdAt: string;
  updatedAt: string;
}

export function clientJson(client: ClientSummary): ClientJson {
  return {
    id: client.id,
    type: client.isPublic ? 'public' : 'confidential',
    redirectUris: [...client.redirectUris],
    allowedScopes: [...client.allowedScopes],
    effectiveScopes: allowedScopes(client.allowedScopes),
    allowedOrigins: [...client.allowedOrigins],
    effectiveOrigins: effectiveOrigins(client.allowedOrigins, client.redirectUris),
    grantTypes: [...client.grantTypes],
    effectiveGrantTypes: servedGrantTypes(client),
    createdAt: client.createdAt.toISOString(),
    updatedAt: client.updatedAt.toISOString(),
  };
}

/** The grant types the token endpoint accepts from `client` (adapter/client-metadata.ts decides the same). */
export function servedGrantTypes(client: ClientSummary): string[] {
  if (client.id === cliSetting('resourceServerClientId')) return [];
  return effectiveGrantTypes({ id: client.id, registered: client.grantTypes, confidential: !client.isPublic });
}
