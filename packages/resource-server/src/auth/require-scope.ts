/**
 * Middleware: the token must grant `scope` (403 insufficient_scope otherwise).
 * - a token without any scope keeps full access (SPEC.md: scopes are optional).
 * - matching is the service's one scope rule (@heroes/oauth-scopes): a
 *   granted scope also grants its sub-scopes ("heroes" grants
 *   "heroes:read"), never the other way round.
 */
import { isGranted } from '@heroes/oauth-scopes';
import type { Middleware } from 'koa';
import type { AuthState } from './bearer-guard.ts';
import { insufficientScope } from './challenges.ts';

/**
 * Usage:
 *   [bearerGuard, requireScope('heroes:write', 'heroes'), createHero]
 */
export function requireScope(scope: string, realm: string): Middleware {
  return async function requireScopeStep(ctx, next) {
    const { scopes } = (ctx.state as AuthState).auth;
    if (scopes.length > 0 && !isGranted(scopes, scope)) {
      throw insufficientScope(realm, scope);
    }
    await next();
  };
}
