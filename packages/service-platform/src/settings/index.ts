/**
 * The settings tables and env parsers alone (`@heroes/platform/settings`):
 * for command lines that must start fast, without the HTTP middleware.
 */
export * from './env-parsers.ts';
export * from './define-settings.ts';
export { libuvPoolSize } from './libuv-pool-size.ts';
export { hashQueueSettings } from './hash-queue-settings.ts';
export { credentialBodySettings, CREDENTIAL_BODY_BYTES } from './credential-body-settings.ts';
export { NO_PROXY } from '../address/client-address.ts';
export { logLevelSettings, startupLogLevel } from './log-level-setting.ts';
