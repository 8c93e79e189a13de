/**
 * Every environment setting of the resource server in one table: the entries shared with other processes, from
 * @heroes/platform's SHARED_SETTINGS, and its own. The config type, the loader (load-config.ts), the defaults and
 * docs/configuration.md's table all come from here.
 */
import { defineSettings, EnvValueError, integer, NO_PROXY, parseHttpUrl, parseOriginList, parsePort, parseProxyTrust, parseText, SHARED_SETTINGS as SHARED, TRACING_SETTINGS, type ReadSetting } from '@heroes/platform/settings';

const positive = integer({ min: 1 });
const milliseconds = integer({ min: 0 });

export const SETTINGS = defineSettings({
  databaseUrl: SHARED.databaseUrl,
  databaseDirectUrl: SHARED.databaseDirectUrl,
  port: SHARED.port,
  host: { env: 'HOST', parse: parseText, default: '0.0.0.0', doc: 'listen address' },
  managementPort: {
    env: 'MANAGEMENT_PORT', parse: parsePort, optional: true, defaultDoc: 'none',
    doc: 'a second port (on HOST) that answers only `/health/live`, `/health/ready` (to anyone who reaches it) and `/metrics` (METRICS_ALLOW): for Kubernetes probes and Prometheus, never published by a Service or ingress (docs/operations.md, "Internal endpoints")',
  },
  authPort: SHARED.authPort,
  authServerUrl: {
    env: 'AUTH_SERVER_URL',
    parse: parseHttpUrl,
    default: (read: ReadSetting) => {
      const authPort = read(SHARED.authPort);
      if (authPort === 0) throw new EnvValueError('set when AUTH_PORT is 0 (a free port the edge cannot know)');
      return `http://127.0.0.1:${authPort}`;
    },
    defaultDoc: '`http://127.0.0.1:$AUTH_PORT`',
    doc: 'where `/auth/*` is forwarded and tokens are introspected',
  },
  publicBaseUrl: SHARED.publicBaseUrl,
  clientId: SHARED.resourceServerClientId,
  dataDir: SHARED.dataDir,
  clientSecret: {
    env: 'RESOURCE_SERVER_CLIENT_SECRET',
    parse: parseText,
    optional: true,
    secret: true,
    defaultDoc: 'generated into `$HEROES_DATA_DIR/resource-server-secret`',
    doc: 'its secret; the client row is created or updated on start',
  },
  bcryptCost: SHARED.bcryptCost,
  passwordHashConcurrency: SHARED.passwordHashConcurrency,
  passwordHashQueueMax: SHARED.passwordHashQueueMax,
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
  heroWriteLimit: {
    env: 'HERO_WRITE_LIMIT', parse: positive, default: 300,
    doc: 'hero creates and updates per user (or, for a token without one, per client) within HERO_WRITE_WINDOW_MS (then 429 with Retry-After and RateLimit fields; counted in PostgreSQL, shared by every replica)',
  },
  heroWriteWindowMs: {
    env: 'HERO_WRITE_WINDOW_MS', parse: integer({ min: 1_000, max: 24 * 60 * 60_000 }), default: 60_000,
    doc: 'window of HERO_WRITE_LIMIT, ms (1 s to a day)',
  },
  idempotencyKeyHours: {
    env: 'IDEMPOTENCY_KEY_HOURS', parse: integer({ min: 1, max: 24 * 30 }), default: 24,
    doc: 'how long the first answer to a `POST /heroes` or `POST /register` sent with an `Idempotency-Key` is kept for its repeats, hours (in PostgreSQL, shared by every replica; purged with the expired tokens)',
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
  dpopProofWindowSeconds: {
    env: 'DPOP_PROOF_WINDOW_SECONDS', parse: integer({ min: 1, max: 300 }), default: 60,
    doc: "how far a DPoP proof's `iat` may be from the edge's clock, either way, seconds; each proof is accepted once by any replica within it (docs/oauth.md)",
  },
  introspectionTimeoutMs: { env: 'INTROSPECTION_TIMEOUT_MS', parse: positive, default: 5_000, doc: 'time limit of one introspection call, ms (then 503)' },
  authProxyTimeoutMs: { env: 'AUTH_PROXY_TIMEOUT_MS', parse: positive, default: 30_000, doc: 'time limit of a forwarded `/auth/*` request, ms' },
  authBodyTimeoutMs: {
    env: 'AUTH_BODY_TIMEOUT_MS', parse: integer({ min: 1, max: 300_000 }), default: 10_000,
    doc: 'longest time the body of a forwarded `/auth/*` request may take to arrive, ms (408 beyond it); it is read whole at the edge before a connection to the authorization server is taken',
  },
  authProxyMaxSockets: {
    env: 'AUTH_PROXY_MAX_SOCKETS', parse: integer({ min: 1, max: 65_536 }), default: 256,
    doc: 'connections from the edge to the authorization server (the forwarding pool; more requests wait for one)',
  },
  authProxyAddressMax: {
    env: 'AUTH_PROXY_ADDRESS_MAX', parse: integer({ min: 1, max: 65_536 }), default: 64,
    doc: 'forwarded `/auth/*` and `/.well-known/*` requests in flight per client address (an IPv6 /64); beyond it 429 with Retry-After (docs/http.md, fair forwarding)',
  },
  trustProxy: {
    env: 'TRUST_PROXY', parse: parseProxyTrust, default: NO_PROXY, defaultDoc: 'none',
    doc: 'proxies in front of the edge whose X-Forwarded-For (and -Proto, -Host) are believed: `1` one hop (a Kubernetes Ingress or load balancer), `n` hops, or CIDR networks (with loopback); the client is the right-most X-Forwarded-For entry that is not a trusted proxy (docs/operations.md)',
  },
  maxBodyBytes: { env: 'MAX_BODY_BYTES', parse: positive, default: 10 * 1024 * 1024, doc: 'request body limit of the hero routes, bytes (413 beyond it)' },
  authMaxBodyBytes: SHARED.authMaxBodyBytes,
  requestTimeoutMs: { env: 'REQUEST_TIMEOUT_MS', parse: milliseconds, default: 30_000, doc: 'longest time a client may take to send a whole request, ms (408; 0 = none)' },
  headersTimeoutMs: { env: 'HEADERS_TIMEOUT_MS', parse: positive, default: 15_000, doc: 'longest time a client may take to send the request headers, ms' },
  dbPoolSize: { env: 'DB_POOL_SIZE', parse: positive, default: 10, doc: 'PostgreSQL connections per process' },
  dbConnectTimeoutMs: SHARED.dbConnectTimeoutMs,
  dbQueryTimeoutMs: SHARED.dbQueryTimeoutMs,
  dbPreparedStatements: SHARED.dbPreparedStatements,
  workers: { env: 'WORKERS', parse: integer({ min: 1, max: 256 }), default: 1, doc: 'worker processes sharing the public port (a dead one is replaced)' },
  shutdownTimeoutMs: SHARED.shutdownTimeoutMs,
  metricsAllow: SHARED.metricsAllow,
  corsOrigins: {
    env: 'CORS_ORIGINS', parse: parseOriginList, default: [], defaultDoc: 'any origin',
    doc: 'web origins (comma-separated) whose pages may call `/heroes` and `/register` (CORS); unset: any',
  },
  logLevel: SHARED.logLevel,
  // Read first by register-tracing.ts (before this table), checked here with the rest.
  ...TRACING_SETTINGS,
});
