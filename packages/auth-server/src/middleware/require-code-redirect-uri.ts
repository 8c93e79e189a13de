/**
 * The authorization-code exchange needs the redirect_uri of the
 * authorization request when that request had one (RFC 6749 section
 * 4.1.3; see provider/code-redirect-uri.ts for how).
 *
 * Rules enforced here (POST /auth/token, form body, grant_type
 * authorization_code, no or empty redirect_uri):
 * - a code issued for a request that included redirect_uri → the form is
 *   given a redirect_uri no client has, and the library answers 400
 *   invalid_grant (redirect_uri mismatch) after client authentication,
 *   leaving the code unconsumed;
 * - a code issued for a request that omitted it → unchanged: the library
 *   uses the client's single registered URI, as before;
 * - an unknown code → unchanged (the library answers invalid_grant).
 * One extra read of the code, only for exchanges without redirect_uri.
 */
import type { Middleware } from 'koa';
import type { PrismaClient } from '@heroes/db';
import { TokenAdapter } from '../adapter/token-adapter.ts';
import type { RevocationNotifier } from '../notify/revocation-notifier.ts';
import { providerForm } from '../provider/library-seams.ts';
import { REDIRECT_URI_REQUIRED, wasRedirectUriOmitted } from '../provider/code-redirect-uri.ts';

export function createCodeRedirectUriCheck(deps: { db: PrismaClient; notify: RevocationNotifier }): Middleware {
  const codes = new TokenAdapter(deps.db, 'AuthorizationCode', deps.notify);
  return async function requireCodeRedirectUri(ctx, next) {
    const form = providerForm(ctx.req);
    if (form?.['grant_type'] === 'authorization_code' && !form['redirect_uri'] && typeof form['code'] === 'string') {
      const code = await codes.find(form['code']);
      if (code && !wasRedirectUriOmitted(code)) form['redirect_uri'] = REDIRECT_URI_REQUIRED;
    }
    return next();
  };
}
