/**
 * Middleware: the token must grant `scope` (403 insufficient_scope otherwise).
 * - a token without any scope keeps full access (SPEC.md: scopes are optional).
 * - matching follows Aqueduct's AuthScope: a granted scope also grants its
 *   sub-scopes ("heroes" grants "heroes:read"), not the other way round; a
 *   granted scope with a `.modifier` grants only exactly itself.
 */
import type { Middleware } from 'koa';
import type { AuthState } from './bearer-guard.ts';
import { insufficientScope } from './challenges.ts';

export function scopeGrants(granted: string, required: string): boolean {
  if (granted === required) return true;
  if (granted.includes('.')) return false;
  return required.startsWith(`${granted}:`);
}

/**
 * Usage:
 *   [bearerGuard, requireScope('heroes:write', 'heroes'), createHero]
 */
export function requireScope(scope: string, realm: string): Middleware {
  return async function requireScopeStep(ctx, next) {
    const { scopes } = (ctx.state as AuthState).auth;
    if (scopes.length > 0 && !scopes.some((granted) => scopeGrants(granted, scope))) {
      throw insufficientScope(realm, scope);
    }
    await next();
  };
}
