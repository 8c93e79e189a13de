/**
 * Every route of the authorization server, in one place. The provider's own
 * routes are the only paths forwarded to it (see app.ts); /auth/code is ours.
 */
export const ROUTES = Object.freeze({
  token: '/auth/token',
  revocation: '/auth/revoke',
  introspection: '/auth/introspect',
  jwks: '/auth/jwks',
  /** Our login form and code grant; also the advertised authorization_endpoint. */
  authorization: '/auth/code',
  openidDiscovery: '/.well-known/openid-configuration',
  oauthDiscovery: '/.well-known/oauth-authorization-server',
});

/** Paths handed to oidc-provider (exact match, POST or GET as the library routes them). */
export const PROVIDER_PATHS: ReadonlySet<string> = new Set([
  ROUTES.token,
  ROUTES.revocation,
  ROUTES.introspection,
  ROUTES.jwks,
  ROUTES.openidDiscovery,
  ROUTES.oauthDiscovery,
]);

/**
 * The methods each provider path answers (besides OPTIONS, a CORS preflight
 * the library answers itself): POST for the client-authenticated endpoints
 * (RFC 6749 3.2, RFC 7009 2.1, RFC 7662 2.1), GET and HEAD for documents.
 */
export const PROVIDER_METHODS: ReadonlyMap<string, readonly string[]> = new Map([
  [ROUTES.token, ['POST']],
  [ROUTES.revocation, ['POST']],
  [ROUTES.introspection, ['POST']],
  [ROUTES.jwks, ['GET', 'HEAD']],
  [ROUTES.openidDiscovery, ['GET', 'HEAD']],
  [ROUTES.oauthDiscovery, ['GET', 'HEAD']],
]);

/** Endpoints that authenticate the client (RFC 6749 section 2.3). */
export const CLIENT_AUTH_PATHS: ReadonlySet<string> = new Set([ROUTES.token, ROUTES.revocation, ROUTES.introspection]);
