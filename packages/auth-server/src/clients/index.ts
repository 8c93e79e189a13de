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
  rotateSecret,
  type AddClientInput,
  type ClientSummary,
  type RemovedClient,
  type RotateSecretOptions,
} from './client-registry.ts';
export { ClientRegistryError, type ClientRegistryErrorCode } from './client-registry-error.ts';
export { validateClientId, MAX_CLIENT_ID_LENGTH } from './client-id.ts';
export { validateRedirectUri, validateRedirectUris, MAX_REDIRECT_URI_LENGTH, MAX_REDIRECT_URIS } from './redirect-uri.ts';
export { validateAllowedOrigins, effectiveOrigins, MAX_ALLOWED_ORIGINS } from './allowed-origins.ts';
export { parseScopes, validateScope } from './parse-scopes.ts';
export { GRANT_TYPES, parseGrantTypes, checkGrantTypesForKind, effectiveGrantTypes, defaultGrantTypes, type GrantType } from './grant-types.ts';
export { formatScopes } from '@heroes/oauth-scopes';
export {
  hashClientSecret,
  verifyClientSecret,
  generateClientSecret,
  validateClientSecret,
  bcryptCost,
  DEFAULT_BCRYPT_COST,
} from './client-secret.ts';
