/**
 * Every default of the resource server, in one place. Each key can be set
 * from the environment variable named in its comment (see load-config.ts).
 */
export const defaults = Object.freeze({
  /** TCP port of the public edge (`PORT`). Aqueduct's default. */
  port: 8888,
  /** Interface to listen on (`HOST`). */
  host: '0.0.0.0',
  /** Base URL of the authorization server process (`AUTH_SERVER_URL`). */
  authServerUrl: 'http://127.0.0.1:8889',
  /** OAuth client id the resource server introspects as (`RESOURCE_SERVER_CLIENT_ID`). */
  clientId: 'resource-server',
  /**
   * bcrypt cost factor for /register (`BCRYPT_COST`). 10 ≈ 60–80 ms per hash
   * on one core of the dev machine; 4 is the library minimum.
   */
  bcryptCost: 10,
  /** Largest number of cached introspection results (`INTROSPECTION_CACHE_MAX`, entries). */
  introspectionCacheMax: 10_000,
  /**
   * Upper bound of how long an active introspection result is reused
   * (`INTROSPECTION_CACHE_TTL_MS`, milliseconds). Never beyond the token's
   * own `exp`; revocations clear the cache immediately via LISTEN/NOTIFY.
   */
  introspectionCacheTtlMs: 60_000,
  /**
   * How long an inactive (`active: false`) result is reused
   * (`INTROSPECTION_NEGATIVE_TTL_MS`, milliseconds). A dead token never comes
   * back to life, so this only bounds memory held for garbage tokens.
   */
  introspectionNegativeTtlMs: 5_000,
  /** Time limit of one introspection call (`INTROSPECTION_TIMEOUT_MS`, milliseconds). */
  introspectionTimeoutMs: 5_000,
  /** Time limit of a forwarded /auth/* request (`AUTH_PROXY_TIMEOUT_MS`, milliseconds). */
  authProxyTimeoutMs: 30_000,
  /**
   * Whether this edge sits behind a trusted proxy (`TRUST_PROXY`, 1/true):
   * incoming X-Forwarded-* are honoured and passed on instead of replaced.
   */
  trustProxy: false,
  /** Request body cap (`MAX_BODY_BYTES`, bytes): SPEC.md section 8. */
  maxBodyBytes: 10 * 1024 * 1024,
  /**
   * Longest time a client may take to send one whole request, headers and
   * body (`REQUEST_TIMEOUT_MS`, milliseconds; 0 = none): a stalled upload
   * gets 408 and is disconnected. Node's own default is 300 s.
   */
  requestTimeoutMs: 30_000,
  /** Longest time a client may take to send the request headers (`HEADERS_TIMEOUT_MS`, milliseconds). */
  headersTimeoutMs: 15_000,
  /** PostgreSQL pool size of this process (`DB_POOL_SIZE`, connections). */
  dbPoolSize: 10,
  /** Time limit for a new database connection (`DB_CONNECT_TIMEOUT_MS`, milliseconds). */
  dbConnectTimeoutMs: 3_000,
  /** Longest accepted username, in characters (UTF-16 code units). */
  maxUsernameLength: 150,
  /** Longest accepted password, in UTF-8 bytes: bcrypt reads only the first 72. */
  maxPasswordBytes: 72,
  /** Longest accepted hero name, in characters. */
  maxHeroNameLength: 100,
  /** Scope a token needs to read heroes, when the token carries scopes at all. */
  heroesReadScope: 'heroes:read',
  /** Scope a token needs to change heroes, when the token carries scopes at all. */
  heroesWriteScope: 'heroes:write',
  /** Realm named in WWW-Authenticate challenges (RFC 6750 section 3). */
  realm: 'heroes',
});

export type Defaults = typeof defaults;
