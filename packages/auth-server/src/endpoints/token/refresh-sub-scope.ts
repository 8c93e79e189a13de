/**
 * A refresh that narrows to a sub-scope of the token's scope (RFC 6749 section 6; `heroes` grants `heroes:read`): the
 * library accepts only values on the token, so a value granted by one of them is handed over as that parent value
 * (all the library's checks run as for an exact refresh) and the new token is stored with exactly what was asked
 * (library/access-token-scope.ts). A value nothing grants, or an unknown token, is left to the library.
 */
import type { Middleware } from 'koa';
import type Provider from 'oidc-provider';
import { requestState } from '../../request-state.ts';
import { formatScopes, grantsScope, splitScopes } from '@heroes/oauth-scopes';

export function createRefreshSubScope(provider: Provider): Middleware {
  return async function refreshSubScope(ctx, next) {
    const state = requestState(ctx);
    const form = state.form;
    const scope = form?.['scope'];
    const value = form?.['refresh_token'];
    if (!form || form['grant_type'] !== 'refresh_token' || typeof scope !== 'string' || !scope || typeof value !== 'string') return next();
    const token = await provider.RefreshToken.find(value, { ignoreExpiration: true });
    const held = new Set(splitScopes(token?.scope));
    const requested = splitScopes(scope);
    if (!token || requested.every((v) => held.has(v))) return next();
    const handed = requested.map((v) => (held.has(v) ? v : ([...held].find((p) => grantsScope(p, v)) ?? v)));
    if (handed.every((v) => held.has(v))) {
      form['scope'] = formatScopes(new Set(handed));
      state.narrowedScope = formatScopes(requested);
    }
    return next();
  };
}
