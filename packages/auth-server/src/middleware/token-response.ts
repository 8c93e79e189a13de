/**
 * Final touches on the provider's token, revocation and introspection
 * responses.
 *
 * Rules enforced here:
 * - `Pragma: no-cache` next to the library's `Cache-Control: no-store`
 *   (RFC 6749 section 5.1, Aqueduct);
 * - `token_type` is `bearer` (SPEC §2; case-insensitive per RFC 6749 5.1):
 *   the library answers `Bearer` for its built-in grants;
 * - an empty `scope` is left out, as the password grant does for an
 *   unscoped token (a code flow that asked only for `openid` gives an
 *   unscoped access token, see provider/access-token-scope.ts).
 */
import type { Middleware } from 'koa';
import { CLIENT_AUTH_PATHS, ROUTES } from '../provider/routes.ts';

export function createTokenResponseFixer(): Middleware {
  return async function fixTokenResponse(ctx, next) {
    if (!CLIENT_AUTH_PATHS.has(ctx.path)) return next();
    await next();
    ctx.set('Pragma', 'no-cache');
    const body = ctx.body as { token_type?: unknown; scope?: unknown } | undefined;
    if (ctx.path !== ROUTES.token || !body || typeof body !== 'object') return;
    if (body.token_type === 'Bearer') body.token_type = 'bearer';
    if (body.scope === '') delete body.scope;
  };
}
