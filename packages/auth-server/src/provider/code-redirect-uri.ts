/**
 * RFC 6749 section 4.1.3 at the token endpoint: `redirect_uri` is
 * "REQUIRED, if the redirect_uri parameter was included in the
 * authorization request ..., and their values MUST be identical".
 *
 * The library cannot tell on its own: with a single registered redirect
 * URI it fills an omitted `redirect_uri` with that URI before comparing
 * (`allowOmittingSingleRegisteredRedirectUri`, on by default), which is
 * right only when the authorization request omitted it too. So:
 * - /auth/code marks the codes whose request omitted redirect_uri:
 *   `redirectUriOmitted: true` added to the code's stored payload in our
 *   own table right after the library stored the code (markRedirectUriOmitted;
 *   the library's model neither stores nor reads the member, so nothing
 *   of the library is patched);
 * - the exchange reads the stored payload through our adapter
 *   (adapter/token-adapter.ts); an exchange without redirect_uri of a code
 *   that is not so marked gets
 *   a redirect_uri no client can have registered (see
 *   middleware/require-code-redirect-uri.ts), so the library itself answers
 *   invalid_grant "redirect_uri mismatch", after client authentication and
 *   without consuming the code. A code without the mark (issued before it
 *   existed) needs redirect_uri: the safe default.
 */
import { addToTokenPayload, type PrismaClient } from '@heroes/db';
import type { AdapterPayload } from 'oidc-provider';
import { hashToken } from '../adapter/hash-token.ts';

export const REDIRECT_URI_OMITTED = 'redirectUriOmitted';

/**
 * What an exchange without redirect_uri is compared with when the
 * authorization request had one: it has spaces, which no registered
 * redirect URI may contain (clients/redirect-uri.ts), so it never matches.
 */
export const REDIRECT_URI_REQUIRED = 'redirect_uri required: the authorization request included it';

/** Marks the stored code `code` (its value) as issued for a request without redirect_uri. */
export async function markRedirectUriOmitted(db: PrismaClient, code: string): Promise<void> {
  await addToTokenPayload(db, 'authorization_codes', hashToken(code), { [REDIRECT_URI_OMITTED]: true });
}

/** True when the stored code (its payload, as our adapter reads it) was issued for a request without redirect_uri. */
export function wasRedirectUriOmitted(payload: AdapterPayload): boolean {
  return (payload as Record<string, unknown>)[REDIRECT_URI_OMITTED] === true;
}
