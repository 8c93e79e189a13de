/**
 * RFC 6749 section 4.1.3 at the token endpoint: redirect_uri is required when the authorization request had one. The
 * library fills an omitted one with a single registered URI, which is right only if the request omitted it too: so
 * /auth/code marks its codes issued without one (`redirectUriOmitted` in our stored payload, nothing of the library
 * patched), and an unmarked code's exchange without redirect_uri fails (endpoints/token/require-code-redirect-uri.ts).
 */
import { addToTokenPayload, type PrismaClient } from '@heroes/db';
import type { AdapterPayload } from 'oidc-provider';
import { hashToken } from '../adapter/hash-token.ts';

const REDIRECT_URI_OMITTED = 'redirectUriOmitted';

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
