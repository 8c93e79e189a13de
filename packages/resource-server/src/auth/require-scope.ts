/**
 * Middleware: the token must grant `scope` (403 insufficient_scope otherwise).
 * - deny by default: a token grants only the scopes it records; a token
 *   without scopes, or with only `openid` or other non-hero scopes, grants
 *   nothing here (the authorization server writes out the hero scopes of
 *   clients registered without allowed scopes).
 * - matching is the service's one scope rule (@heroes/oauth-scopes): a
 *   granted scope also grants its sub-scopes ("heroes" grants
 *   "heroes:read"), never the other way round.
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
