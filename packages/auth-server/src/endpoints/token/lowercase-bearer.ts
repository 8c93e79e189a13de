/**
 * The token endpoint's `token_type` as `bearer`, lowercase (docs/oauth.md); the library writes `Bearer`.
 */
import type { Middleware } from 'koa';

export const lowercaseBearer: Middleware = async function lowercaseBearer(ctx, next) {
  await next();
  const body = ctx.body as { token_type?: unknown } | undefined;
  if (body && typeof body === 'object' && body.token_type === 'Bearer') body.token_type = 'bearer';
};
