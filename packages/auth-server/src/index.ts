/**
 * @heroes/auth-server — the OAuth 2.0 authorization server. Public API only.
 */
export {
  createAuthServer,
  resolveConfig,
  type AuthServer,
  type AuthServerOptions,
  type ListeningServer,
} from './create-auth-server.ts';
export { loadConfig, defaultKeysFile, type AuthServerConfig } from './config/load-config.ts';
export { DEFAULTS } from './config/defaults.ts';
export { generateKeys, loadOrCreateKeys, type ProviderKeys } from './config/keys.ts';
export { TOKENS_REVOKED_CHANNEL, type RevokedTokens } from './notify/revocation-notifier.ts';
export { hashToken } from './adapter/hash-token.ts';
export { purgeExpired, type PurgeResult } from './adapter/purge-expired.ts';
export { SETTINGS } from './config/settings.ts';
