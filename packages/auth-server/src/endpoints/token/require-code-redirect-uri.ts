/**
 * A code exchange needs the authorization request's redirect_uri when it had one (RFC 6749 section 4.1.3;
 * common/code-redirect-uri.ts): an exchange without it, of a code not marked as issued without one, is given a
 * redirect_uri no client has, so the library answers invalid_grant after client authentication, leaving the code
 * unconsumed. One extra read, only for exchanges without redirect_uri.
 */
import type { Middleware } from 'koa';
import type { PrismaClient } from '@heroes/db';
import { TokenAdapter } from '../../adapter/token-adapter.ts';
import type { RevocationNotifier } from '../../notify/revocation-notifier.ts';
import { requestState } from '../../request-state.ts';
import { REDIRECT_URI_REQUIRED, wasRedirectUriOmitted } from '../../common/code-redirect-uri.ts';

export function createCodeRedirectUriCheck(deps: { db: PrismaClient; notify: RevocationNotifier }): Middleware {
  const codes = new TokenAdapter(deps.db, 'AuthorizationCode', deps.notify);
  return async function requireCodeRedirectUri(ctx, next) {
    const form = requestState(ctx).form;
    if (form?.['grant_type'] === 'authorization_code' && !form['redirect_uri'] && typeof form['code'] === 'string') {
      const code = await codes.find(form['code']);
      if (code && !wasRedirectUriOmitted(code)) form['redirect_uri'] = REDIRECT_URI_REQUIRED;
    }
    return next();
  };
}
