/**
 * The OAuth 2.0 client registry (public API).
 *
 * Usage:
 *   import { addClient, listClients } from './clients/index.ts';
 */
export {
  addClient,
  listClients,
  getClient,
  removeClient,
  setScopes,
  setRedirectUris,
  setGrantTypes,
  setRequireDpop,
  rotateSecret,
  type ClientSummary,
} from './client-registry.ts';
export { ClientRegistryError, type ClientRegistryErrorCode } from './client-registry-error.ts';
export { validateClientId } from './client-id.ts';
export { validateRedirectUri, validateRedirectUris } from './redirect-uri.ts';
export { validateAllowedOrigins, effectiveOrigins } from './allowed-origins.ts';
export { parseScopes, validateScope } from './parse-scopes.ts';
export { GRANT_TYPES, parseGrantTypes, checkGrantTypesForKind, effectiveGrantTypes, type GrantType } from './grant-types.ts';
export { formatScopes } from '@heroes/oauth-scopes';
export { hashClientSecret, verifyClientSecret, generateClientSecret, validateClientSecret } from './client-secret.ts';
