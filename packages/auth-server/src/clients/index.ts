/**
 * The OAuth 2.0 client registry (public API).
 *
 * Usage:
 *   import { addClient, createClientSecretVerifier } from './clients/index.ts';
 */
export {
  addClient,
  listClients,
  getClient,
  removeClient,
  setScopes,
  setRedirectUri,
  rotateSecret,
  prismaCode,
  type AddClientInput,
  type ClientSummary,
  type RemovedClient,
  type RotateSecretOptions,
} from './client-registry.ts';
export { ClientRegistryError, type ClientRegistryErrorCode } from './client-registry-error.ts';
export { validateClientId, MAX_CLIENT_ID_LENGTH } from './client-id.ts';
export { validateRedirectUri, MAX_REDIRECT_URI_LENGTH } from './redirect-uri.ts';
export { parseScopes, validateScope, isValidScope, formatScopes } from './scopes.ts';
export {
  hashClientSecret,
  verifyClientSecret,
  generateClientSecret,
  validateClientSecret,
  bcryptCost,
  DEFAULT_BCRYPT_COST,
} from './client-secret.ts';
export {
  createClientSecretVerifier,
  type ClientSecretVerifier,
  type ClientSecretVerifierOptions,
} from './client-secret-verifier.ts';
export { notifyTokensRevoked, TOKENS_REVOKED_CHANNEL } from './notify-tokens-revoked.ts';
