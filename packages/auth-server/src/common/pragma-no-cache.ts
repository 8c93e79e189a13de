/**
 * `Pragma: no-cache` beside `Cache-Control: no-store` on the provider's token, revocation and introspection answers
 * (RFC 6749 section 5.1).
 */
import type { Middleware } from 'koa';

export const addPragmaNoCache: Middleware = async function addPragmaNoCache(ctx, next) {
  await next();
  ctx.set('Pragma', 'no-cache');
};
