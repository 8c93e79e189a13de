/**
 * The `scope` of every grant at POST /auth/token follows RFC 6749 section 3.3 and the service's limits
 * (@heroes/oauth-scopes), else 400 invalid_scope before client authentication, any read or password check (one
 * linear scan): the library's refresh grant has no limit and a refresh may narrow to sub-scopes. A repeated `scope`
 * is left to the library.
 */
import type { Middleware } from 'koa';
import { parseScopeParameter } from '@heroes/oauth-scopes';
import { OAuthError } from '../../common/oauth-error.ts';
import { requestState } from '../../request-state.ts';
export const checkScopeParameter: Middleware = async function checkScopeParameter(ctx, next) {
  const scope = requestState(ctx).form?.['scope'];
  if (typeof scope === 'string' && scope !== '') {
    const parsed = parseScopeParameter(scope);
    if (!parsed.ok) throw new OAuthError(400, 'invalid_scope', parsed.description);
  }
  return next();
};
