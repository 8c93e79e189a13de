/**
 * A path's endpoints as a table, method → ordered steps, the one way both servers answer methods (RFC 9110):
 * `before` steps run first for every method but OPTIONS (401 before 405: an anonymous caller learns nothing);
 * HEAD runs GET's steps; OPTIONS runs its steps or answers 204 with `Allow`; any other method → 405 JSON with
 * `Allow` (the table's methods, HEAD and OPTIONS, unless `options.allow` names them).
 */
import type { Middleware } from 'koa';
import compose from 'koa-compose';
import { MethodNotAllowedError } from '../errors/client-errors.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type MethodTable = Partial<Record<Method, readonly Middleware[]>>;

export interface DispatchOptions {
  /** Steps for OPTIONS; when they leave it unanswered, 204 with `Allow`. */
  options?: readonly Middleware[];
  /** The methods named in `Allow` and in the 405 (default: see above). */
  allow?: readonly string[];
}

/** A step that hands the request on unchanged (e.g. to a library mounted after the table). */
export const passThrough: Middleware = (_ctx, next) => next();

/**
 * Usage:
 *   router.all('/heroes', dispatchByMethod([bearerGuard], { GET: [listHeroes], POST: [createHero] }));
 */
export function dispatchByMethod(before: readonly Middleware[], table: MethodTable, options: DispatchOptions = {}): Middleware {
  const handlers = new Map<string, Middleware>();
  for (const [method, steps] of Object.entries(table)) {
    handlers.set(method, compose([...before, ...(steps ?? [])]));
  }
  if (handlers.has('GET')) handlers.set('HEAD', handlers.get('GET')!);
  const allowed = options.allow ?? [...handlers.keys(), 'OPTIONS'];
  const allowHeader = allowed.join(', ');
  const refuse = compose([...before, () => Promise.reject(new MethodNotAllowedError(allowed))]);
  const preflight = options.options ? compose([...options.options]) : undefined;

  return async function dispatch(ctx, next) {
    const handler = handlers.get(ctx.method);
    if (handler) return handler(ctx, next);
    if (ctx.method !== 'OPTIONS') return refuse(ctx, next);
    if (preflight) await preflight(ctx, next);
    if (ctx.status === 404 && ctx.body == null) {
      ctx.status = 204;
      ctx.set('Allow', allowHeader);
    }
  };
}
