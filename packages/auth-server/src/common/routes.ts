/**
 * Every route of the authorization server, in one place. The provider's own
 * routes are the only paths handed to it (endpoints/, one step table per
 * path); /auth/code is ours (endpoints/code/code-endpoint.ts).
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
