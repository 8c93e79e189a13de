/**
 * The client credentials grant (RFC 6749 section 4.4), for confidential clients registered for it: the scope within
 * its allowed scopes (`openid` refused: no user), an opaque access token stored like every other (introspection,
 * revocation, purge alike) with no account, grant or refresh token, living ACCESS_TOKEN_TTL; a DPoP proof checked as
 * at the password grant and binding the token. Answer: access_token, token_type, expires_in, scope.
 */
import { formatScopes, OPENID } from '@heroes/oauth-scopes';
import { errors } from 'oidc-provider';
import type Provider from 'oidc-provider';
import type { TokenEndpointGrantContext } from 'oidc-provider';
import { clientAllowedScopes } from '../scopes/allowed-scopes.ts';
import { resolveScopes } from '../scopes/resolve-scopes.ts';
import { checkDpopProofReplay, validateDpopProof } from './library-seams.ts';
import { DPOP_PROOF_REQUIRED, missingRequiredProof } from './dpop-binding.ts';

type AccessTokenInit = ConstructorParameters<Provider['AccessToken']>[0];

const CLIENT_CREDENTIALS_GRANT_PARAMS = ['scope'] as const;

export interface ClientCredentialsGrantDeps {
  accessTokenTtl: number;
}

export function registerClientCredentialsGrant(provider: Provider, deps: ClientCredentialsGrantDeps): void {
  provider.registerGrantType('client_credentials', createClientCredentialsGrant(provider, deps), CLIENT_CREDENTIALS_GRANT_PARAMS);
}

function createClientCredentialsGrant(provider: Provider, { accessTokenTtl }: ClientCredentialsGrantDeps) {
  return async function clientCredentialsGrant(ctx: TokenEndpointGrantContext): Promise<void> {
    const { client, params } = ctx.oidc;
    const requested = typeof params.scope === 'string' ? params.scope : undefined;
    const resolved = resolveScopes(clientAllowedScopes(client).filter((scope) => scope !== OPENID), requested);
    if (!resolved.ok) throw new errors.InvalidScope(resolved.description, requested ?? '');
    if (resolved.scopes.includes(OPENID)) throw new errors.InvalidScope('openid cannot be granted without a user', OPENID);
    if (resolved.scopes.length === 0) throw new errors.InvalidScope('this client may be granted no scope', requested ?? '');
    const scope = formatScopes(resolved.scopes);
    const dPoP = await validateDpopProof(provider, ctx);
    if (!dPoP && missingRequiredProof(client, ctx.get('DPoP'))) throw new errors.InvalidDpopProof(DPOP_PROOF_REQUIRED);
    if (dPoP) await checkDpopProofReplay(provider, ctx, dPoP, client.clientId);

    // The library's typings ask every access token for an account; at run time one without is what client
    // credentials are (its own ClientCredentials model is that token under another kind, which the tables and
    // fast paths here would all have to learn).
    const at = new provider.AccessToken({ client, gty: 'client_credentials', scope, expiresIn: accessTokenTtl } as unknown as AccessTokenInit);
    if (dPoP) at.setThumbprint('jkt', dPoP.thumbprint);
    ctx.oidc.entity('AccessToken', at);
    const accessToken = await at.save();
    ctx.body = { access_token: accessToken, token_type: dPoP ? 'DPoP' : 'bearer', expires_in: at.expiration, scope: at.scope };
  };
}
