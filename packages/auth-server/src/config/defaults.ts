/**
 * Every default of the authorization server, in one place. Each can be
 * overridden by the environment variable named in its comment (see
 * load-config.ts) or by passing a partial config to createAuthServer.
 */
export const DEFAULTS = Object.freeze({
  /**
   * Port of the authorization server process. Env: AUTH_PORT.
   */
  port: 8889,

  /**
   * Interface to listen on. Env: AUTH_HOST.
   */
  host: '0.0.0.0',

  /**
   * Public base URL of the service (the resource server's address, which
   * forwards /auth/* here). Used as the issuer, so discovery and every
   * advertised endpoint are right behind the forwarding proxy.
   * Env: PUBLIC_BASE_URL.
   */
  publicBaseUrl: 'http://localhost:8888',

  /**
   * Lifetime of an access token issued by the password grant.
   * Unit: seconds. Default 24 h (Aqueduct). Env: ACCESS_TOKEN_TTL.
   */
  accessTokenTtl: 86_400,

  /**
   * Lifetime of an access token issued by an authorization-code exchange or
   * a refresh. Unit: seconds. Default 1 h (Aqueduct). Env: CODE_ACCESS_TOKEN_TTL.
   */
  codeAccessTokenTtl: 3_600,

  /**
   * Lifetime of an ID token (code flow with scope `openid`, and its
   * refreshes). Unit: seconds. Default 1 h. Not configurable: nothing here
   * keeps an ID token once the client has read it.
   */
  idTokenTtl: 3_600,

  /**
   * Lifetime of an authorization code. Unit: seconds. Default 10 min.
   * Env: AUTH_CODE_TTL.
   */
  authCodeTtl: 600,

  /**
   * Lifetime of a refresh token (and of the grant it belongs to).
   * Unit: seconds. Default 30 days. Env: REFRESH_TOKEN_TTL.
   */
  refreshTokenTtl: 30 * 86_400,

  /**
   * bcrypt cost used for user passwords and client secrets. Env: BCRYPT_COST.
   */
  bcryptCost: 10,

  /**
   * Client id of the resource server's own confidential client: the only
   * client allowed to introspect tokens of other clients.
   * Env: RESOURCE_SERVER_CLIENT_ID.
   */
  resourceServerClientId: 'resource-server',

  /**
   * Scopes always declared to oidc-provider, on top of every scope found in
   * oauth_clients at start and every scope of a client read afterwards.
   */
  baseScopes: Object.freeze(['heroes:read', 'heroes:write']) as readonly string[],

  /**
   * How often expired tokens, codes and records are deleted.
   * Unit: milliseconds. Default 10 min. Env: PURGE_INTERVAL_MS.
   */
  purgeIntervalMs: 10 * 60_000,

  /**
   * How many successful client-secret verifications are remembered, and for
   * how long (milliseconds).
   */
  secretCacheMax: 10_000,
  secretCacheTtlMs: 10 * 60_000,

  /**
   * Largest request body read (form bodies of /auth/code, /auth/token,
   * /auth/revoke and /auth/introspect). Unit: bytes. Default 10 MiB
   * (SPEC.md section 8, as the resource server); one byte more → 413
   * `{"error":"entity length exceeds maximum"}`. Env: MAX_BODY_BYTES.
   */
  maxBodyBytes: 10 * 1024 * 1024,

  /**
   * Pooled database connections of this process.
   */
  databasePoolSize: 10,
});
