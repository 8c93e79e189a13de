/**
 * Final touches on the provider's token, revocation and introspection
 * responses, on their way out.
 *
 * Rules enforced here:
 * - `Pragma: no-cache` next to the library's `Cache-Control: no-store`
 *   (RFC 6749 section 5.1, Aqueduct), at all three endpoints;
 * - at the token endpoint, `token_type` is `bearer` (docs/oauth.md;
 *   case-insensitive per RFC 6749 5.1): the library answers `Bearer` for
 *   its built-in grants;
 * - `scope` is the access token's values as stored (RFC 6749 section 5.1),
 *   `openid` included when an ID token was asked for (set by
 *   provider/access-token-scope.ts).
 */
import type { Middleware } from 'koa';

export const addPragmaNoCache: Middleware = async function addPragmaNoCache(ctx, next) {
  await next();
  ctx.set('Pragma', 'no-cache');
};

export const lowercaseBearer: Middleware = async function lowercaseBearer(ctx, next) {
  await next();
  const body = ctx.body as { token_type?: unknown } | undefined;
  if (body && typeof body === 'object' && body.token_type === 'Bearer') body.token_type = 'bearer';
};
