/**
 * Methods on the provider's paths (token, revocation, introspection, JWKS,
 * discovery), before oidc-provider sees the request: the library routes
 * only its own methods and leaves the rest unanswered (a 404).
 *
 * Rules enforced here:
 * - a method the path does not answer → 405 with `Allow` and a JSON error
 *   body (RFC 9110 section 15.5.6), as /auth/code does;
 * - OPTIONS goes to the library, which answers CORS preflights (Origin and
 *   Access-Control-Request-Method); any other OPTIONS it leaves unanswered
 *   gets 204 with `Allow` (RFC 9110 section 9.3.7).
 */
import type { Middleware } from 'koa';
import { MethodNotAllowedError } from '@heroes/http-kit';
import { PROVIDER_METHODS } from '../provider/routes.ts';

export function createMethodGuard(methods: ReadonlyMap<string, readonly string[]> = PROVIDER_METHODS): Middleware {
  return async function guardMethods(ctx, next) {
    const allowed = methods.get(ctx.path);
    if (!allowed || allowed.includes(ctx.method)) return next();
    if (ctx.method !== 'OPTIONS') throw new MethodNotAllowedError(allowed);
    await next();
    if (ctx.status === 404 && ctx.body === undefined) {
      ctx.status = 204;
      ctx.set('Allow', allowed.join(', '));
    }
  };
}
