/**
 * Final touches on the provider's token, revocation and introspection
 * responses.
 *
 * Rules enforced here:
 * - `Pragma: no-cache` next to the library's `Cache-Control: no-store`
 *   (RFC 6749 section 5.1, Aqueduct);
 * - `token_type` is `bearer` (docs/oauth.md; case-insensitive per RFC 6749 5.1):
 *   the library answers `Bearer` for its built-in grants;
 * - an empty `scope` is left out, as the password grant does for an
 *   unscoped token (a code flow that asked only for `openid` gives an
 *   unscoped access token, see provider/access-token-scope.ts);
 * - when an ID token was issued, `scope` names `openid` first (RFC 6749
 *   section 5.1: the scope granted), although the access token itself is
 *   stored, and introspected, without it.
 */
import type { Middleware } from 'koa';
import { CLIENT_AUTH_PATHS, ROUTES } from '../provider/routes.ts';

export function createTokenResponseFixer(): Middleware {
  return async function fixTokenResponse(ctx, next) {
    if (!CLIENT_AUTH_PATHS.has(ctx.path)) return next();
    await next();
    ctx.set('Pragma', 'no-cache');
    const body = ctx.body as { token_type?: unknown; scope?: unknown; id_token?: unknown } | undefined;
    if (ctx.path !== ROUTES.token || !body || typeof body !== 'object') return;
    if (body.token_type === 'Bearer') body.token_type = 'bearer';
    if (typeof body.id_token === 'string') {
      const values = typeof body.scope === 'string' ? body.scope.split(' ').filter(Boolean) : [];
      if (!values.includes('openid')) body.scope = ['openid', ...values].join(' ');
    }
    if (body.scope === '') delete body.scope;
  };
}
