/**
 * Step 1 of /auth/code: the client and where to send the user back.
 *
 * Rules enforced here:
 * - client_id is required and must be registered → else 400 page (an id
 *   outside VSCHAR, RFC 6749 Appendix A.1, is unknown without a query);
 * - the resource server's own client exists only to introspect → 400 page
 *   `unauthorized_client` (RFC 6749 4.1.2.1), whatever its registration;
 * - the client must have a registered redirect URI → else 400 page;
 * - a redirect_uri parameter, when sent, must equal the registered one
 *   exactly (no prefix or pattern matching) → else 400 page; when absent
 *   the registered one is used (Aqueduct; RFC 6749 3.1.2.3 allows it for a
 *   single registered URI).
 */
import type { OAuthClient, PrismaClient } from '@heroes/db';
import { isVschar } from '../clients/vschar.ts';
import type { CodeRequest } from './code-request.ts';
import { PageError } from './code-flow-errors.ts';

export type CodeClient = Pick<OAuthClient, 'id' | 'hashedSecret' | 'redirectUri' | 'allowedScopes'> & { redirectUri: string };

export async function checkClient(
  db: PrismaClient,
  request: CodeRequest,
  introspectionOnlyClientId?: string,
): Promise<CodeClient> {
  if (!request.clientId) throw new PageError('invalid_request', 'client_id is required');
  if (!isVschar(request.clientId)) throw new PageError('invalid_client', 'unknown client');
  const client = await db.oAuthClient.findUnique({
    where: { id: request.clientId },
    select: { id: true, hashedSecret: true, redirectUri: true, allowedScopes: true },
  });
  if (!client) throw new PageError('invalid_client', 'unknown client');
  if (client.id === introspectionOnlyClientId) {
    throw new PageError('unauthorized_client', 'this client may only introspect tokens; it cannot use the authorization code flow');
  }
  if (!client.redirectUri) throw new PageError('invalid_client', 'this client has no registered redirect URI');
  if (request.redirectUri !== undefined && request.redirectUri !== client.redirectUri) {
    throw new PageError('invalid_request', 'redirect_uri does not match the registered redirect URI');
  }
  return client as CodeClient;
}
