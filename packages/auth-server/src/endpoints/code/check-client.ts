/**
 * Step 1 of /auth/code, the client and where to send the user back (failures are a 400 page, never a redirect):
 * client_id registered, allowed the authorization_code grant, not the resource server's own; a registered redirect
 * URI; a sent redirect_uri equal to one exactly (RFC 9700 section 4.1.3), but a loopback literal's port (RFC 8252
 * section 7.3); omitted, only a client with a single URI is sent back there.
 */
import { findClientRow, type ClientRow, type PrismaClient } from '@heroes/db';
import { matchRegisteredRedirectUri } from '../../clients/redirect-uri.ts';
import { isVschar } from '../../clients/vschar.ts';
import { effectiveGrantTypes } from '../../clients/grant-types.ts';
import type { CodeRequest } from './code-request.ts';
import { PageError } from './code-flow-errors.ts';

/** The client of a code request, with the redirect URI this request uses. */
export type CodeClient = Pick<ClientRow, 'id' | 'hashedSecret' | 'allowedScopes'> & { redirectUri: string };

export async function checkClient(
  db: PrismaClient,
  request: CodeRequest,
  introspectionOnlyClientId?: string,
): Promise<CodeClient> {
  if (!request.clientId) throw new PageError('invalid_request', 'client_id is required');
  if (!isVschar(request.clientId)) throw new PageError('invalid_client', 'unknown client');
  const client = await findClientRow(db, request.clientId);
  if (!client) throw new PageError('invalid_client', 'unknown client');
  if (client.id === introspectionOnlyClientId) {
    throw new PageError('unauthorized_client', 'this client may only introspect tokens; it cannot use the authorization code flow');
  }
  const { redirectUris, grantTypes, id, hashedSecret, allowedScopes } = client;
  if (!effectiveGrantTypes({ id: client.id, registered: grantTypes, confidential: Boolean(client.hashedSecret) }).includes('authorization_code')) {
    throw new PageError('unauthorized_client', 'this client is not registered for the authorization code flow');
  }
  return { id, hashedSecret, allowedScopes, redirectUri: chooseRedirectUri(redirectUris, request.redirectUri) };
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
