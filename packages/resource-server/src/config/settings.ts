/**
 * Every environment setting of the resource server (the public edge), in one
 * table: variable, parser, default, documentation. The configuration type,
 * the loader (load-config.ts), the defaults (defaults.ts) and the README's
 * configuration table all come from here.
 */
import { credentialBodySettings, defineSettings, hashQueueSettings, integer, logLevelSettings, NO_PROXY, parseCidrList, parseDatabaseUrl, parseHttpUrl, parseOriginList, parsePort, parseProxyTrust, parseText, type Env } from '@heroes/platform/settings';

const positive = integer({ min: 1 });
const milliseconds = integer({ min: 0 });

export const SETTINGS = defineSettings({
  databaseUrl: { env: 'DATABASE_URL', parse: parseDatabaseUrl, secret: true, doc: 'PostgreSQL connection URL (npm start sets it: given, or the embedded server)' },
  port: { env: 'PORT', parse: parsePort, default: 8888, doc: 'public port (resource server, the `{base_url}`); 0 picks a free one' },
  host: { env: 'HOST', parse: parseText, default: '0.0.0.0', doc: 'listen address' },
  authPort: { env: 'AUTH_PORT', parse: integer({ min: 1, max: 65_535 }), default: 8889, doc: 'authorization server port (the resource server: for the default AUTH_SERVER_URL)' },
  authServerUrl: {
    env: 'AUTH_SERVER_URL',
    parse: parseHttpUrl,
    default: (values: Record<string, unknown>) => `http://127.0.0.1:${String(values['authPort'])}`,
    defaultDoc: '`http://127.0.0.1:$AUTH_PORT`',
    doc: 'where `/auth/*` is forwarded and tokens are introspected',
  },
  publicBaseUrl: {
    env: 'PUBLIC_BASE_URL',
    parse: parseHttpUrl,
    default: (values: Record<string, unknown>) => `http://localhost:${String(values['port'])}`,
    defaultDoc: '`http://localhost:$PORT`',
    doc: 'the public base URL: the web app\'s redirect URI is `$PUBLIC_BASE_URL/app/callback`',
  },
  clientId: { env: 'RESOURCE_SERVER_CLIENT_ID', parse: parseText, default: 'resource-server', doc: "the resource server's own confidential client (introspection)" },
  clientSecret: {
    env: 'RESOURCE_SERVER_CLIENT_SECRET',
    parse: parseText,
    optional: true,
    secret: true,
    defaultDoc: 'generated into `$HEROES_DATA_DIR/resource-server-secret`',
    doc: 'its secret; the client row is created or updated on start',
  },
  bcryptCost: { env: 'BCRYPT_COST', parse: integer({ min: 4, max: 31 }), default: 10, doc: 'bcrypt cost of `/register` passwords (10 ≈ 60–80 ms per hash)' },
  ...hashQueueSettings(),
  passwordMinLength: {
    env: 'PASSWORD_MIN_LENGTH', parse: integer({ min: 8, max: 64 }), default: 8,
    doc: 'fewest characters of a new password (8 to 64; NIST SP 800-63B: no composition rules, the most common passwords refused)',
  },
  registerAddressLimit: {
    env: 'REGISTER_ADDRESS_LIMIT', parse: positive, default: 100,
    doc: '`POST /register` attempts per client address within REGISTER_ADDRESS_WINDOW_MS (then 429 with Retry-After; counted in PostgreSQL, shared by every replica)',
  },
  registerAddressWindowMs: {
    env: 'REGISTER_ADDRESS_WINDOW_MS', parse: integer({ min: 1, max: 24 * 60 * 60_000 }), default: 15 * 60_000,
    doc: 'window of REGISTER_ADDRESS_LIMIT, ms (at most a day)',
  },
  introspectionCacheMax: { env: 'INTROSPECTION_CACHE_MAX', parse: positive, default: 10_000, doc: 'cached introspection results (entries)' },
  introspectionCacheTtlMs: {
    env: 'INTROSPECTION_CACHE_TTL_MS', parse: milliseconds, default: 60_000,
    doc: "longest an active result is cached, ms (never past the token's expiry; a revocation evicts the token's grant at once)",
  },
  introspectionNegativeCacheMax: {
    env: 'INTROSPECTION_NEGATIVE_CACHE_MAX', parse: positive, default: 1_000,
    doc: 'cached inactive (unknown, revoked) token results, in a cache of their own: random tokens never evict valid entries',
  },
  introspectionNegativeTtlMs: { env: 'INTROSPECTION_NEGATIVE_TTL_MS', parse: milliseconds, default: 5_000, doc: 'how long an inactive result is cached, ms' },
  introspectionTimeoutMs: { env: 'INTROSPECTION_TIMEOUT_MS', parse: positive, default: 5_000, doc: 'time limit of one introspection call, ms (then 503)' },
  authProxyTimeoutMs: { env: 'AUTH_PROXY_TIMEOUT_MS', parse: positive, default: 30_000, doc: 'time limit of a forwarded `/auth/*` request, ms' },
  trustProxy: {
    env: 'TRUST_PROXY', parse: parseProxyTrust, default: NO_PROXY, defaultDoc: 'none',
    doc: 'proxies in front of the edge whose X-Forwarded-For (and -Proto, -Host) are believed: `1` one hop (a Kubernetes Ingress or load balancer), `n` hops, or CIDR networks (with loopback); the client is the right-most X-Forwarded-For entry that is not a trusted proxy (docs/operations.md)',
  },
  maxBodyBytes: { env: 'MAX_BODY_BYTES', parse: positive, default: 10 * 1024 * 1024, doc: 'request body limit of the hero routes, bytes (413 beyond it)' },
  ...credentialBodySettings(),
  requestTimeoutMs: { env: 'REQUEST_TIMEOUT_MS', parse: milliseconds, default: 30_000, doc: 'longest time a client may take to send a whole request, ms (408; 0 = none)' },
  headersTimeoutMs: { env: 'HEADERS_TIMEOUT_MS', parse: positive, default: 15_000, doc: 'longest time a client may take to send the request headers, ms' },
  dbPoolSize: { env: 'DB_POOL_SIZE', parse: positive, default: 10, doc: 'PostgreSQL connections per process' },
  dbConnectTimeoutMs: { env: 'DB_CONNECT_TIMEOUT_MS', parse: positive, default: 3_000, doc: 'time limit for a new database connection, ms (then 503)' },
  dbQueryTimeoutMs: {
    env: 'DB_QUERY_TIMEOUT_MS', parse: positive, default: 3_000,
    doc: 'time limit of one database statement, ms, enforced by PostgreSQL (statement_timeout, lock_timeout: cancelled and rolled back, 503 `timed out connection to database`, nothing written; the client gives up 1 s later if the network is dead); below INTROSPECTION_TIMEOUT_MS, so the edge names the database',
  },
  workers: { env: 'WORKERS', parse: integer({ min: 1, max: 256 }), default: 1, doc: 'worker processes sharing the public port (a dead one is replaced)' },
  shutdownTimeoutMs: { env: 'SHUTDOWN_TIMEOUT_MS', parse: positive, default: 10_000, doc: 'on SIGTERM, longest wait for in-flight requests before closing, ms' },
  metricsAllow: {
    env: 'METRICS_ALLOW', parse: parseCidrList, default: [], defaultDoc: 'loopback only',
    doc: 'CIDR networks (comma-separated) that may read `GET /metrics` (and the authorization server\'s `/health/*`) beside loopback; a request a trusted proxy forwarded is judged by its original client, loopback not included (docs/operations.md)',
  },
  corsOrigins: {
    env: 'CORS_ORIGINS', parse: parseOriginList, default: [], defaultDoc: 'any origin',
    doc: 'web origins (comma-separated) whose pages may call `/heroes` and `/register` (CORS); unset: any',
  },
  ...logLevelSettings(),
});
