/**
 * A refresh that narrows to a sub-scope of the refresh token's scope
 * (RFC 6749 section 6: the requested scope must not include any scope "not
 * originally granted"; a parent scope grants its sub-scopes, see
 * @heroes/oauth-scopes). Token scope `heroes`, refresh with
 * `scope=heroes:read` → an access token scoped `heroes:read`.
 *
 * oidc-provider's refresh grant accepts only values present on the refresh
 * token, and filters the access token's scope by the grant's values (a
 * sub-scope would be dropped).
 *
 * Rules enforced here (POST /auth/token, grant_type=refresh_token, scope
 * sent, one extra read of the refresh token):
 * - a requested value present on the token → unchanged (the library's case);
 * - a value that is not, but is granted by a value of the token (`heroes`
 *   grants `heroes:read`) → the library is handed that parent value, so it
 *   runs all of its checks (client authentication, binding, expiry, the
 *   scope check, ID token with `openid`) as for an exact refresh, and the
 *   new access token is then stored with exactly the requested values
 *   (provider/access-token-scope.ts);
 * - a value no token value grants → handed over as is: the library answers
 *   400 invalid_scope, nothing issued;
 * - an unknown refresh token → unchanged (the library answers invalid_grant).
 */
import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import type Provider from 'oidc-provider';
import { providerForm } from './library-seams.ts';
import { formatScopes, grantsScope, splitScopes } from '@heroes/oauth-scopes';

/** Requests whose access token gets a narrower scope than the one handed to the library. */
const narrowed = new WeakMap<IncomingMessage, string>();

export function createRefreshSubScope(provider: Provider): Middleware {
  return async function refreshSubScope(ctx, next) {
    const form = providerForm(ctx.req);
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
      narrowed.set(ctx.req, formatScopes(requested));
    }
    return next();
  };
}

/** The exact values a refresh narrowed to, for this request (stored by provider/access-token-scope.ts). */
export function narrowedScope(req: IncomingMessage): string | undefined {
  return narrowed.get(req);
}
