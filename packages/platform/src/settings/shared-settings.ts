/**
 * The settings catalogue: every variable both servers (or @heroes/db) read, declared once with one parser, default and
 * doc true for every reader. Tables take entries by reference (`port: SHARED_SETTINGS.authPort`); a one-server
 * setting lives in that server's config/settings.ts; a command that may run without a value takes the entry with
 * `optional: true` (OPTIONAL_DATABASE_URL). e2e/test/settings-catalogue.test.ts fails on a second declaration.
 */
import { defineSettings, type Env, type ReadSetting } from './define-settings.ts';
import { integer, parseBoolean, parseCidrList, parseDatabaseUrl, parseHttpUrl, parseLogLevel, parsePort, parseText } from './env-parsers.ts';
import { libuvPoolSize } from './libuv-pool-size.ts';
import { TRACING_SETTINGS } from './tracing-settings.ts';

/** 64 KiB: ample for every OAuth parameter at its longest, percent-encoded. */
export const CREDENTIAL_BODY_BYTES = 64 * 1024;

const positive = integer({ min: 1 });

const PORT = { env: 'PORT', parse: parsePort, default: 8888, doc: 'public port: the resource server (the `{base_url}`) listens on it (0 picks a free one); PUBLIC_BASE_URL\'s default names it' };

export const SHARED_SETTINGS = defineSettings({
  databaseUrl: {
    env: 'DATABASE_URL', parse: parseDatabaseUrl, secret: true,
    defaultDoc: 'required by the servers; unset → embedded PostgreSQL (`npm start`, `npm run migrate`)',
    doc: 'PostgreSQL connection URL (`npm start` passes the servers the one it resolved; the `auth` CLI, unset: the running service\'s database)',
  },
  databaseDirectUrl: {
    env: 'DATABASE_DIRECT_URL', parse: parseDatabaseUrl, secret: true, optional: true, defaultDoc: '`$DATABASE_URL`',
    doc: 'PostgreSQL connection URL that reaches the server directly (or through a session pooler) for what needs a session of its own: the edge\'s revocation feed (LISTEN) and migrations; required when DATABASE_URL goes through a transaction pooler such as PgBouncer (docs/operations.md, "Connection poolers")',
  },
  port: PORT,
  authPort: {
    env: 'AUTH_PORT', parse: parsePort, default: 8889,
    doc: 'authorization server port (the resource server: for the default AUTH_SERVER_URL); 0 picks a free one (then set AUTH_SERVER_URL)',
  },
  publicBaseUrl: {
    env: 'PUBLIC_BASE_URL', parse: parseHttpUrl, default: (read: ReadSetting) => `http://localhost:${read(PORT)}`, defaultDoc: '`http://localhost:$PORT`',
    doc: 'the public base URL: the OAuth issuer, the login form action; the web app\'s redirect URI is `$PUBLIC_BASE_URL/app/callback`',
  },
  bcryptCost: {
    env: 'BCRYPT_COST', parse: integer({ min: 4, max: 31 }), default: 10,
    doc: 'bcrypt cost of the hashes made here: `/register` passwords, client secrets (`auth` CLI), the sign-in dummy hash (10 ≈ 60–80 ms per hash)',
  },
  passwordHashConcurrency: {
    env: 'PASSWORD_HASH_CONCURRENCY', parse: positive, default: (_read: ReadSetting, env: Env) => libuvPoolSize(env),
    defaultDoc: '`$UV_THREADPOOL_SIZE`, else 4', doc: "password hashes (bcrypt) running at once per process (libuv's thread pool runs them)",
  },
  passwordHashQueueMax: {
    env: 'PASSWORD_HASH_QUEUE_MAX', parse: integer({ min: 0 }), default: 32,
    doc: 'password hashes waiting at most per process; one more answers 503 with Retry-After at once',
  },
  authMaxBodyBytes: {
    env: 'AUTH_MAX_BODY_BYTES', parse: integer({ min: 1024, max: 1024 * 1024 }), default: CREDENTIAL_BODY_BYTES,
    doc: 'body limit of the OAuth endpoints, the login form and `POST /register`, bytes (413 beyond it; other routes: MAX_BODY_BYTES)',
  },
  resourceServerClientId: {
    env: 'RESOURCE_SERVER_CLIENT_ID', parse: parseText, default: 'resource-server',
    doc: "the resource server's own confidential client: the only one that may introspect other clients' tokens",
  },
  dbConnectTimeoutMs: { env: 'DB_CONNECT_TIMEOUT_MS', parse: positive, default: 3_000, doc: 'time limit for a new database connection, ms (then 503)' },
  dbQueryTimeoutMs: {
    env: 'DB_QUERY_TIMEOUT_MS', parse: positive, default: 3_000,
    doc: 'time limit of one database statement, ms, enforced by PostgreSQL (statement_timeout, lock_timeout: cancelled and rolled back, 503 `timed out connection to database`, nothing written; the client gives up 1 s later if the network is dead); below INTROSPECTION_TIMEOUT_MS, so the edge names the database',
  },
  dbPreparedStatements: {
    env: 'DB_PREPARED_STATEMENTS', parse: parseBoolean, default: false,
    doc: 'name the hot statements so PostgreSQL plans each once per connection: only on a direct connection, or behind a pooler that keeps prepared statements (PgBouncer >= 1.21 with `max_prepared_statements` > 0); off, every statement is sent unnamed, which any pooler passes (docs/operations.md)',
  },
  shutdownTimeoutMs: { env: 'SHUTDOWN_TIMEOUT_MS', parse: positive, default: 10_000, doc: 'on SIGTERM, longest wait for in-flight requests before closing, ms' },
  metricsAllow: {
    env: 'METRICS_ALLOW', parse: parseCidrList, default: [], defaultDoc: 'loopback only',
    doc: 'CIDR networks (comma-separated) that may read `GET /metrics` (and the authorization server\'s `/health/*`) beside loopback; a request a trusted proxy forwarded is judged by its original client, loopback not included (docs/operations.md)',
  },
  logLevel: { env: 'LOG_LEVEL', parse: parseLogLevel, default: 'info', doc: 'pino log level' },
  dataDir: {
    // Unset: `<repo>/.data` (local-state/data-dir.ts).
    env: 'HEROES_DATA_DIR', parse: parseText, optional: true, defaultDoc: '`.data/`',
    doc: 'local state: embedded cluster, generated keys and secrets, the running service\'s address (a relative path: from the current folder)',
  },
  // OpenTelemetry (OTEL_*): tracing-settings.ts.
  ...TRACING_SETTINGS,
});

/**
 * DATABASE_URL for the commands that may run without it: `npm start` and
 * `npm run migrate` (unset: the embedded server), the `auth` CLI (the
 * running service's database), the image's migration step and the test
 * databases (each says what to set).
 */
export const OPTIONAL_DATABASE_URL = { ...SHARED_SETTINGS.databaseUrl, optional: true as const };
