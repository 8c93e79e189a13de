/**
 * Every environment setting of the authorization server in one table: the entries shared with other processes, from
 * @heroes/platform's SHARED_SETTINGS, and its own. The config type, the loader (load-config.ts), the defaults and
 * docs/configuration.md's table all come from here.
 */
import path from 'node:path';
import { dataDirFrom, resolveDataDir } from '@heroes/platform/local-state';
import { defineSettings, integer, OPTIONAL_DATABASE_URL, parseBoolean, parseCidrList, parsePort, parseText, SHARED_SETTINGS as SHARED, TRACING_SETTINGS, type Env, type ReadSetting } from '@heroes/platform/settings';

/** Where generated keys live by default: in the data folder (@heroes/platform/local-state's resolveDataDir). */
export function defaultKeysFile(env: Env = process.env): string {
  return path.join(resolveDataDir(env), 'auth-keys.json');
}

const seconds = integer({ min: 1 });

export const SETTINGS = defineSettings({
  databaseUrl: SHARED.databaseUrl,
  port: SHARED.authPort,
  host: {
    // npm start's own default (127.0.0.1) is stated here and applied by its table (scripts/start/settings.ts).
    env: 'AUTH_HOST', parse: parseText, default: '0.0.0.0', defaultDoc: '`127.0.0.1` (npm start), `0.0.0.0` (the server alone)',
    doc: 'authorization server listen address: `npm start` keeps it on loopback, so the edge is the one public door',
  },
  managementPort: {
    env: 'AUTH_MANAGEMENT_PORT', parse: parsePort, optional: true, defaultDoc: 'none',
    doc: 'a second port (on AUTH_HOST) that answers only `/health/live`, `/health/ready` (to anyone who reaches it) and `/metrics` (METRICS_ALLOW): for Kubernetes probes and Prometheus, never published by a Service or ingress (docs/operations.md, "Internal endpoints")',
  },
  // Read for PUBLIC_BASE_URL's default only: the issuer is the edge's address.
  publicPort: SHARED.port,
  publicBaseUrl: SHARED.publicBaseUrl,
  accessTokenTtl: { env: 'ACCESS_TOKEN_TTL', parse: seconds, default: 86_400, doc: 'password-grant access token lifetime, seconds' },
  codeAccessTokenTtl: { env: 'CODE_ACCESS_TOKEN_TTL', parse: seconds, default: 3_600, doc: 'lifetime of access tokens from the code flow and refreshes, seconds' },
  authCodeTtl: { env: 'AUTH_CODE_TTL', parse: seconds, default: 600, doc: 'authorization code lifetime, seconds' },
  dpopRequireNonce: {
    env: 'DPOP_REQUIRE_NONCE', parse: parseBoolean, default: false, defaultDoc: 'off',
    doc: '`1`: every DPoP proof at the token endpoint must carry a server nonce (RFC 9449 section 8; the first request answers 400 `use_dpop_nonce` with `DPoP-Nonce`)',
  },
  refreshTokenTtl: { env: 'REFRESH_TOKEN_TTL', parse: seconds, default: 30 * 86_400, doc: 'refresh token lifetime, seconds' },
  bcryptCost: SHARED.bcryptCost,
  passwordHashConcurrency: SHARED.passwordHashConcurrency,
  passwordHashQueueMax: SHARED.passwordHashQueueMax,
  dataDir: SHARED.dataDir,
  keysFile: {
    env: 'AUTH_KEYS_FILE', parse: parseText, default: (read: ReadSetting) => path.join(dataDirFrom(read(SHARED.dataDir)), 'auth-keys.json'),
    defaultDoc: '`$HEROES_DATA_DIR/auth-keys.json`', doc: 'signing and cookie keys; generated (mode 0600) on first start; `auth keys rotate` adds a signing key, which every server reading the file uses within a second',
  },
  resourceServerClientId: SHARED.resourceServerClientId,
  auditRetentionDays: {
    env: 'AUDIT_RETENTION_DAYS', parse: integer({ min: 1, max: 3650 }), default: 90,
    doc: 'audit events (`auth events`) older than this many days are deleted by the purge timer',
  },
  purgeIntervalMs: { env: 'PURGE_INTERVAL_MS', parse: integer({ min: 1 }), default: 10 * 60_000, doc: 'how often expired token, code and session rows are deleted, ms' },
  purgeWalMbPerSecond: {
    env: 'PURGE_WAL_MB_PER_SECOND', parse: integer({ min: 1 }), default: 8,
    doc: 'the purge of expired rows paces its batches to this much WAL, MB a second: the WAL written while a batch runs, spread over the batch and its pause (docs/operations.md)',
  },
  authMaxBodyBytes: SHARED.authMaxBodyBytes,
  databasePoolSize: { env: 'AUTH_DB_POOL_SIZE', parse: integer({ min: 1 }), default: 10, doc: 'PostgreSQL connections of the authorization server process' },
  dbConnectTimeoutMs: SHARED.dbConnectTimeoutMs,
  dbQueryTimeoutMs: SHARED.dbQueryTimeoutMs,
  dbPreparedStatements: SHARED.dbPreparedStatements,
  shutdownTimeoutMs: SHARED.shutdownTimeoutMs,
  metricsAllow: SHARED.metricsAllow,
  loginAccountFailures: {
    env: 'LOGIN_ACCOUNT_FAILURES', parse: integer({ min: 1 }), default: 10,
    doc: 'consecutive failed logins (or client secrets) of one account (or client) before it answers 429 for a while (a success resets); a known address counts its own',
  },
  loginBackoffMs: {
    env: 'LOGIN_BACKOFF_MS', parse: integer({ min: 1 }), default: 1_000,
    doc: 'first back-off of a throttled account, ms; doubles with each further failure',
  },
  loginBackoffMaxMs: {
    env: 'LOGIN_BACKOFF_MAX_MS', parse: integer({ min: 1 }), default: 15 * 60_000,
    doc: 'longest back-off of a throttled account or client, ms (how long a lockout lasts after the last guess; strangers never lock out a known address, see LOGIN_KNOWN_ADDRESS_DAYS)',
  },
  loginKnownAddressDays: {
    env: 'LOGIN_KNOWN_ADDRESS_DAYS', parse: integer({ min: 0, max: 365 }), default: 30,
    doc: 'an address an account or client signed in from successfully keeps its own failure budget for this many days: guesses from elsewhere never lock it out (0: off)',
  },
  loginAddressFailures: {
    env: 'LOGIN_ADDRESS_FAILURES', parse: integer({ min: 1 }), default: 100,
    doc: 'failed logins from one client address per window before it answers 429',
  },
  loginAddressWindowMs: {
    env: 'LOGIN_ADDRESS_WINDOW_MS', parse: integer({ min: 1 }), default: 15 * 60_000,
    doc: 'window of the per-address failure count, ms',
  },
  loginRefusalDelayMs: {
    env: 'LOGIN_REFUSAL_DELAY_MS', parse: integer({ min: 0, max: 60_000 }), default: 1_000,
    doc: 'a login the throttle refuses is answered (429) after this delay, ms: a guesser that waits for each answer makes one guess a second per connection instead of hundreds (0: at once)',
  },
  trustedProxies: {
    env: 'AUTH_TRUSTED_PROXIES', parse: parseCidrList, default: [], defaultDoc: 'loopback only',
    doc: 'CIDR networks (comma-separated) whose X-Forwarded-* headers are believed, beside loopback: the edge',
  },
  logLevel: SHARED.logLevel,
  // Read first by register-tracing.ts (before this table), checked here with the rest.
  ...TRACING_SETTINGS,
});

/**
 * What the `auth` command line reads: the server's own entries where they
 * mean the same, DATABASE_URL optional (unset: the running service's
 * database, from its runtime file), and AUTH_DEBUG.
 */
export const CLI_SETTINGS = defineSettings({
  databaseUrl: OPTIONAL_DATABASE_URL,
  // Migrations of a database without tables (cli/with-database.ts): a session of their own, past a transaction pooler.
  databaseDirectUrl: SHARED.databaseDirectUrl,
  // Where the running service's runtime file is (@heroes/platform's local state).
  dataDir: SETTINGS.dataDir,
  resourceServerClientId: SETTINGS.resourceServerClientId,
  bcryptCost: SETTINGS.bcryptCost,
  // `auth keys rotate`: the file the servers read.
  keysFile: SETTINGS.keysFile,
  debug: { env: 'AUTH_DEBUG', parse: parseBoolean, default: false, defaultDoc: 'off', doc: '`1`: the `auth` command line also prints the stack trace of a failure' },
});
