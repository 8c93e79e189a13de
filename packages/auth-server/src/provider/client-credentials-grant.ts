/**
 * The client credentials grant (RFC 6749 section 4.4) at POST /auth/token:
 * a confidential client asks for a token of its own, with no user, as
 * docs/oauth.md describes.
 *
 * Rules enforced here (client authentication and the client's grant types,
 * clients/grant-types.ts, already checked by the library: a public client
 * never gets here, it is refused unauthorized_client):
 * - the requested scope must fit the client's allowed scopes (resolveScopes;
 *   none asked: its allowed authority scopes) → else invalid_scope;
 *   `openid` is refused (there is no user to issue an ID token about);
 * - an opaque access token, stored hashed in the access token table like
 *   every other one (so introspection, revocation, the revocation feed and
 *   the purge treat it alike), with no account, no grant, no refresh token,
 *   living ACCESS_TOKEN_TTL;
 * - the response: access_token, token_type `bearer`, expires_in, scope.
 */
import { formatScopes, OPENID } from '@heroes/oauth-scopes';
import { errors } from 'oidc-provider';
import type Provider from 'oidc-provider';
import type { TokenEndpointGrantContext } from 'oidc-provider';
import { clientAllowedScopes } from '../scopes/allowed-scopes.ts';
import { resolveScopes } from '../scopes/resolve-scopes.ts';

type AccessTokenInit = ConstructorParameters<Provider['AccessToken']>[0];

export const CLIENT_CREDENTIALS_GRANT_PARAMS = ['scope'] as const;

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

    // The library's typings ask every access token for an account; at run time one without is what client
    // credentials are (its own ClientCredentials model is that token under another kind, which the tables and
    // fast paths here would all have to learn).
    const at = new provider.AccessToken({ client, gty: 'client_credentials', scope, expiresIn: accessTokenTtl } as unknown as AccessTokenInit);
    ctx.oidc.entity('AccessToken', at);
    const accessToken = await at.save();
    ctx.body = { access_token: accessToken, token_type: 'bearer', expires_in: at.expiration, scope: at.scope };
  };
}
