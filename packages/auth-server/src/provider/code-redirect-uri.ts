/**
 * RFC 6749 section 4.1.3 at the token endpoint: `redirect_uri` is
 * "REQUIRED, if the redirect_uri parameter was included in the
 * authorization request ..., and their values MUST be identical".
 *
 * The library cannot tell on its own: with a single registered redirect
 * URI it fills an omitted `redirect_uri` with that URI before comparing
 * (`allowOmittingSingleRegisteredRedirectUri`, on by default), which is
 * right only when the authorization request omitted it too. So:
 * - /auth/code marks the codes whose request omitted redirect_uri
 *   (`redirectUriOmitted: true`, a payload member added to the library's
 *   AuthorizationCode model by installCodeRedirectUriMarker);
 * - an exchange without redirect_uri of a code that is not so marked gets
 *   a redirect_uri no client can have registered (see
 *   middleware/require-code-redirect-uri.ts), so the library itself answers
 *   invalid_grant "redirect_uri mismatch", after client authentication and
 *   without consuming the code. A code without the mark (issued before it
 *   existed) needs redirect_uri: the safe default.
 */
import type Provider from 'oidc-provider';
import { storeWithAuthorizationCode } from './library-seams.ts';

export const REDIRECT_URI_OMITTED = 'redirectUriOmitted';

/**
 * What an exchange without redirect_uri is compared with when the
 * authorization request had one: it has spaces, which no registered
 * redirect URI may contain (clients/redirect-uri.ts), so it never matches.
 */
export const REDIRECT_URI_REQUIRED = 'redirect_uri required: the authorization request included it';

/** Adds `redirectUriOmitted` to what the library stores with an authorization code. */
export function installCodeRedirectUriMarker(provider: Provider): void {
  storeWithAuthorizationCode(provider, REDIRECT_URI_OMITTED);
}

/** True when the code was issued for an authorization request without redirect_uri. */
export function wasRedirectUriOmitted(code: object): boolean {
  return (code as Record<string, unknown>)[REDIRECT_URI_OMITTED] === true;
}
