/**
 * Step 4 of POST /auth/code: a grant and its code stored through the provider's models, so the library's
 * authorization_code grant exchanges it (single use, redirect URI and PKCE checked, replay revokes the grant). With
 * `openid` the code carries it and `nonce` (an ID token at the exchange); `dpop_jkt` binds it (RFC 9449 section 10);
 * an omitted redirect_uri is marked, so only then may the exchange omit it (common/code-redirect-uri.ts).
 */
import type { PrismaClient } from '@heroes/db';
import type Provider from 'oidc-provider';
import { markRedirectUriOmitted } from '../../common/code-redirect-uri.ts';
import type { AuthorizationRequest } from './check-authorization-request.ts';
import type { CodeClient } from './check-client.ts';

export interface MintCodeInput {
  client: CodeClient;
  accountId: string;
  authorization: AuthorizationRequest;
  ttl: number;
}

export async function mintCode(provider: Provider, db: PrismaClient, { client, accountId, authorization, ttl }: MintCodeInput): Promise<string> {
  const oidcClient = await provider.Client.find(client.id);
  if (!oidcClient) throw new Error(`client ${client.id} vanished while issuing a code`);
  const { scope } = authorization;
  const grant = new provider.Grant({ accountId, clientId: client.id });
  grant.addOIDCScope(scope);
  const grantId = await grant.save();
  const code = new provider.AuthorizationCode({
    client: oidcClient,
    accountId,
    grantId,
    redirectUri: client.redirectUri,
    expiresIn: ttl,
    scope,
    ...(authorization.openid && authorization.nonce ? { nonce: authorization.nonce } : {}),
    ...(authorization.codeChallenge ? { codeChallenge: authorization.codeChallenge, codeChallengeMethod: 'S256' } : {}),
    ...(authorization.dpopJkt ? { dpopJkt: authorization.dpopJkt } : {}),
    gty: 'authorization_code',
  });
  const value = await code.save();
  if (!authorization.redirectUriSent) await markRedirectUriOmitted(db, value);
  return value;
}
