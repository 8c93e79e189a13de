/**
 * Step 1 of /auth/code: the client and where to send the user back.
 *
 * Rules enforced here:
 * - client_id is required and must be registered → else 400 page (an id
 *   outside VSCHAR, RFC 6749 Appendix A.1, is unknown without a query);
 * - the resource server's own client exists only to introspect → 400 page
 *   `unauthorized_client` (RFC 6749 4.1.2.1), whatever its registration;
 * - a client whose grant types (clients/grant-types.ts) lack
 *   authorization_code → 400 page `unauthorized_client`;
 * - the client must have a registered redirect URI → else 400 page;
 * - a redirect_uri parameter, when sent, must equal one of the registered
 *   ones exactly, character for character (RFC 6749 3.1.2.3, RFC 9700
 *   4.1.3: no prefix, pattern or normalized matching), but for the port of
 *   a loopback IP literal URI (RFC 8252 7.3, clients/redirect-uri.ts
 *   matchRegisteredRedirectUri) → else 400 page; the code is bound to the
 *   URI as requested, port included, which the exchange must repeat;
 * - when absent, a client with a single registered URI is sent back there
 *   (Aqueduct; RFC 6749 3.1.2.3 allows it), a client with several → 400
 *   page (the request must say which).
 */
import type { OAuthClient, PrismaClient } from '@heroes/db';
import { matchRegisteredRedirectUri } from '../clients/redirect-uri.ts';
import { isVschar } from '../clients/vschar.ts';
import { effectiveGrantTypes } from '../clients/grant-types.ts';
import type { CodeRequest } from './code-request.ts';
import { PageError } from './code-flow-errors.ts';

/** The client of a code request, with the redirect URI this request uses. */
export type CodeClient = Pick<OAuthClient, 'id' | 'hashedSecret' | 'allowedScopes'> & { redirectUri: string };

export async function checkClient(
  db: PrismaClient,
  request: CodeRequest,
  introspectionOnlyClientId?: string,
): Promise<CodeClient> {
  if (!request.clientId) throw new PageError('invalid_request', 'client_id is required');
  if (!isVschar(request.clientId)) throw new PageError('invalid_client', 'unknown client');
  const client = await db.oAuthClient.findUnique({
    where: { id: request.clientId },
    select: { id: true, hashedSecret: true, redirectUris: true, allowedScopes: true, grantTypes: true },
  });
  if (!client) throw new PageError('invalid_client', 'unknown client');
  if (client.id === introspectionOnlyClientId) {
    throw new PageError('unauthorized_client', 'this client may only introspect tokens; it cannot use the authorization code flow');
  }
  const { redirectUris, grantTypes, ...rest } = client;
  if (!effectiveGrantTypes({ id: client.id, registered: grantTypes, confidential: Boolean(client.hashedSecret) }).includes('authorization_code')) {
    throw new PageError('unauthorized_client', 'this client is not registered for the authorization code flow');
  }
  return { ...rest, redirectUri: chooseRedirectUri(redirectUris, request.redirectUri) };
}

function chooseRedirectUri(registered: readonly string[], requested: string | undefined): string {
  if (registered.length === 0) throw new PageError('invalid_client', 'this client has no registered redirect URI');
  if (requested !== undefined) {
    if (matchRegisteredRedirectUri(registered, requested) === undefined) {
      throw new PageError('invalid_request', 'redirect_uri does not match any registered redirect URI');
    }
    return requested;
  }
  if (registered.length > 1) throw new PageError('invalid_request', 'redirect_uri is required: this client has several registered redirect URIs');
  return registered[0]!;
}
