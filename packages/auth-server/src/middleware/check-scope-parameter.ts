/**
 * The `scope` parameter of every grant at POST /auth/token follows the
 * RFC 6749 section 3.3 syntax and the service's limits (at most 50 values
 * of at most 256 characters, @heroes/oauth-scopes), whatever the grant:
 * the library's refresh_token grant has no such limit, and a refresh may
 * narrow to sub-scopes (provider/refresh-sub-scope.ts), so without this a
 * refresh could mint a token with hundreds of values.
 *
 * Rules enforced here (a form body handed to the library, `scope` a
 * non-empty string): malformed, too many or too long → 400 invalid_scope,
 * before client authentication, any database read or password check (one
 * linear scan). A repeated `scope` is left to the library (invalid_request).
 */
import type { Middleware } from 'koa';
import { parseScopeParameter } from '@heroes/oauth-scopes';
import { OAuthError } from './oauth-error.ts';
import { providerForm } from '../provider/library-seams.ts';
export const checkScopeParameter: Middleware = async function checkScopeParameter(ctx, next) {
  const scope = providerForm(ctx.req)?.['scope'];
  if (typeof scope === 'string' && scope !== '') {
    const parsed = parseScopeParameter(scope);
    if (!parsed.ok) throw new OAuthError(400, 'invalid_scope', parsed.description);
  }
  return next();
};
