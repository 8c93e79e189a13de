/**
 * @heroes/auth-server — the OAuth 2.0 authorization server. Public API only.
 */
export { createAuthServer, type AuthServer, type ListeningServer } from './create-auth-server.ts';
export { createApp, createAppLayers, type AppDeps, type AppLayers } from './app.ts';
export { libraryIntrospection, type IntrospectionAnswer } from './endpoints/introspection/introspection-endpoint.ts';
export { fastIntrospection } from './endpoints/introspection/fast-introspection.ts';
export { resolveConfig, type AuthServerConfig, type AuthServerOptions } from './config/auth-server-config.ts';
export { loadConfig } from './config/load-config.ts';
export { defaultKeysFile, SETTINGS } from './config/settings.ts';
export { DEFAULTS } from './config/defaults.ts';
export { generateKeys, loadOrCreateKeys, type ProviderKeys } from './config/keys.ts';
export { TOKENS_REVOKED_CHANNEL, type RevokedTokens } from './notify/revocation-notifier.ts';
export { hashToken } from './adapter/hash-token.ts';
export { purgeExpired, type PurgeResult } from './adapter/purge-expired.ts';
