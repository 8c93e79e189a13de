/**
 * Middleware: the token must grant `scope`, else 403 insufficient_scope. Deny by default: a token grants only the
 * scopes it records (none, or only `openid`, grants nothing here); matching is @heroes/oauth-scopes' one rule (a
 * scope grants its sub-scopes, never the other way).
 */
import { isGranted } from '@heroes/oauth-scopes';
import type { Middleware } from 'koa';
import type { AuthState } from './bearer-guard.ts';
import { insufficientScope } from './challenges.ts';
import type { ProtectedResource } from './protected-resource.ts';

/**
 * Usage:
 *   [bearerGuard, requireScope('heroes:write', resource), createHero]
 */
export function requireScope(scope: string, resource: ProtectedResource): Middleware {
  return function requireScopeStep(ctx, next) {
    const { scopes } = (ctx.state as AuthState).auth;
    if (!isGranted(scopes, scope)) {
      throw insufficientScope(resource, scope);
    }
    return next();
  };
}
