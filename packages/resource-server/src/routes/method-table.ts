/**
 * A path's endpoints as a table: HTTP method → ordered steps (Koa middleware).
 * - the `before` steps (e.g. the bearer guard) run first for every method
 *   but OPTIONS, so an anonymous caller learns nothing about a path (401
 *   before 405, as Aqueduct's Authorizer in front of its controller).
 * - HEAD runs the GET steps (Koa drops the body).
 * - OPTIONS → 204 with `Allow`.
 * - any other method → 405 JSON with `Allow` (RFC 9110 section 15.5.6).
 */
import type { Middleware } from 'koa';
import compose from 'koa-compose';
import { MethodNotAllowedError } from '@heroes/http-kit';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type MethodTable = Partial<Record<Method, readonly Middleware[]>>;

/**
 * Usage:
 *   router.all('/heroes', dispatchByMethod([bearerGuard], { GET: [listHeroes], POST: [createHero] }));
 */
export function dispatchByMethod(before: readonly Middleware[], table: MethodTable): Middleware {
  const handlers = new Map<string, Middleware>();
  for (const [method, steps] of Object.entries(table)) {
    handlers.set(method, compose([...before, ...(steps ?? [])]));
  }
  if (handlers.has('GET')) handlers.set('HEAD', handlers.get('GET')!);
  const allowed = [...handlers.keys(), 'OPTIONS'];
  const allowHeader = allowed.join(', ');
  const refuse = compose([...before, () => Promise.reject(new MethodNotAllowedError(allowed))]);

  return function dispatch(ctx, next) {
    const handler = handlers.get(ctx.method);
    if (handler) return handler(ctx, next);
    if (ctx.method === 'OPTIONS') {
      ctx.set('Allow', allowHeader);
      ctx.status = 204;
      return Promise.resolve();
    }
    return refuse(ctx, next);
  };
}
