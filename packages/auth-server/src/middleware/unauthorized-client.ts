/**
 * RFC 6749 section 5.2 `unauthorized_client` at /auth/token.
 *
 * oidc-provider 9 refuses a grant type the client is not registered for
 * with `invalid_request` ("requested grant type is not allowed for this
 * client", lib/actions/token.js allowedGrantTypeCheck). RFC 6749 names that
 * case `unauthorized_client`: "The authenticated client is not authorized
 * to use this authorization grant type."
 *
 * Rules enforced here (POST /auth/token, after the provider answered):
 * - that one library error → 400 `unauthorized_client`, same description;
 *   the check runs after client authentication, so nothing is revealed to
 *   an unauthenticated caller;
 * - every other answer is left as it is.
 * Cases: the resource server's own client (no grant type at all, see
 * adapter/client-metadata.ts) and a client without a redirect URI
 * presenting a code (no authorization_code grant).
 */
import type { Middleware } from 'koa';
import { LIBRARY_ERROR_TEXTS } from '../provider/library-seams.ts';

export const mapUnauthorizedClient: Middleware = async function mapUnauthorizedClient(ctx, next) {
  await next();
  const body = ctx.body as { error?: unknown; error_description?: unknown } | undefined;
  if (ctx.status === 400 && body?.error === 'invalid_request' && body.error_description === LIBRARY_ERROR_TEXTS.grantTypeNotAllowed) {
    body.error = 'unauthorized_client';
  }
};
