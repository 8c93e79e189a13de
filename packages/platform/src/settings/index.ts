/**
 * The settings tables, the catalogue of shared entries and the env parsers
 * alone (`@heroes/platform/settings`):
 * for command lines that must start fast, without the HTTP middleware.
 */
export * from './env-parsers.ts';
export * from './define-settings.ts';
export { libuvPoolSize } from './libuv-pool-size.ts';
export { SHARED_SETTINGS, OPTIONAL_DATABASE_URL, CREDENTIAL_BODY_BYTES } from './shared-settings.ts';
export { startupLogLevel } from './log-level-setting.ts';
export { TRACING_SETTINGS, tracingAsked, type TracingSettings } from './tracing-settings.ts';
