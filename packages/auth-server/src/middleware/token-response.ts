/**
 * Final touches on the provider's token, revocation and introspection answers: `Pragma: no-cache` beside
 * `Cache-Control: no-store` (RFC 6749 section 5.1); at the token endpoint `token_type: bearer` (docs/oauth.md).
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
