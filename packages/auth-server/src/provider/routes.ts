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

/** Endpoints that authenticate the client (RFC 6749 section 2.3). */
export const CLIENT_AUTH_PATHS: ReadonlySet<string> = new Set([ROUTES.token, ROUTES.revocation, ROUTES.introspection]);
