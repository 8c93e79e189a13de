/**
 * Final touches on the provider's token, revocation and introspection
 * responses.
 *
 * Rules enforced here:
 * - `Pragma: no-cache` next to the library's `Cache-Control: no-store`
 *   (RFC 6749 section 5.1, Aqueduct);
 * - `token_type` is `bearer` (docs/oauth.md; case-insensitive per RFC 6749 5.1):
 *   the library answers `Bearer` for its built-in grants;
 * - `scope` is the library's: the access token's values (RFC 6749
 *   section 5.1), `openid` included when an ID token was asked for.
 */
import type { Middleware } from 'koa';
import { CLIENT_AUTH_PATHS, ROUTES } from '../provider/routes.ts';

export function createTokenResponseFixer(): Middleware {
  return async function fixTokenResponse(ctx, next) {
    if (!CLIENT_AUTH_PATHS.has(ctx.path)) return next();
    await next();
    ctx.set('Pragma', 'no-cache');
    const body = ctx.body as { token_type?: unknown } | undefined;
    if (ctx.path !== ROUTES.token || !body || typeof body !== 'object') return;
    if (body.token_type === 'Bearer') body.token_type = 'bearer';
  };
}
