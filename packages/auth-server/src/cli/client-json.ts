/**
 * A client as `--json` shows it, never a secret or hash. Registered values and what applies are both given: the hero
 * scopes for a client registered without scopes, its redirect URIs' origins without origins, its kind's default grant
 * types without grant types (none for the resource server's own client).
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
  /** Token requests must carry a DPoP proof (`--require-dpop`). */
  requireDpop: boolean;
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
    requireDpop: client.requireDpop,
    createdAt: client.createdAt.toISOString(),
    updatedAt: client.updatedAt.toISOString(),
  };
}

/** The grant types the token endpoint accepts from `client` (adapter/client-metadata.ts decides the same). */
export function servedGrantTypes(client: ClientSummary): string[] {
  if (client.id === cliSetting('resourceServerClientId')) return [];
  return effectiveGrantTypes({ id: client.id, registered: client.grantTypes, confidential: !client.isPublic });
}
