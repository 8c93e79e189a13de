/**
 * Methods on the provider's paths (token, revocation, introspection, JWKS,
 * discovery), before oidc-provider sees the request: the library routes
 * only its own methods and leaves the rest unanswered (a 404). Answered by
 * http-kit's dispatchByMethod, as every other path of both servers.
 *
 * Rules enforced here:
 * - a method the path does not answer → 405 with `Allow` and a JSON error
 *   body (RFC 9110 section 15.5.6);
 * - OPTIONS goes to the library, which answers CORS preflights (Origin and
 *   Access-Control-Request-Method); any other OPTIONS it leaves unanswered
 *   gets 204 with `Allow` (RFC 9110 section 9.3.7).
 */
import type { Middleware } from 'koa';
import { dispatchByMethod, passThrough, type MethodTable } from '@heroes/http-kit';
import { PROVIDER_METHODS } from '../provider/routes.ts';

export function createMethodGuard(methods: ReadonlyMap<string, readonly string[]> = PROVIDER_METHODS): Middleware {
  const guards = new Map<string, Middleware>();
  for (const [path, allowed] of methods) {
    const table: MethodTable = Object.fromEntries(allowed.filter((method) => method !== 'HEAD').map((method) => [method, [passThrough]]));
    guards.set(path, dispatchByMethod([], table, { options: [passThrough], allow: allowed }));
  }
  return function guardMethods(ctx, next) {
    const guard = guards.get(ctx.path);
    return guard ? guard(ctx, next) : next();
  };
}
