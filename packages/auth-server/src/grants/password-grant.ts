/**
 * The resource owner password credentials grant (RFC 6749 section 4.3) at
 * POST /auth/token, as SPEC.md section 4 and Aqueduct's AuthServer.
 *
 * Rules enforced here (client authentication already ran in the library):
 * - `username` and `password` are required → invalid_request;
 * - the requested scope must fit the client's allowed scopes
 *   (resolveScopes; a parent scope grants its sub-scopes) → invalid_scope;
 *   checked before the slow password hash; the granted values are declared
 *   to the provider (a sub-scope is not in any client's list);
 * - unknown user or wrong password → invalid_grant, one message for both;
 * - one grant per issuance; an opaque access token (ACCESS_TOKEN_TTL); a
 *   refresh token only for a client with a secret;
 * - the response: access_token, token_type `bearer`, expires_in (integer
 *   seconds), refresh_token when issued, scope when scoped.
 */
import { errors } from 'oidc-provider';
import type Provider from 'oidc-provider';
import type { TokenEndpointGrantContext } from 'oidc-provider';
import type { UserAuthenticator } from '../accounts/authenticate-user.ts';
import { toAccount } from '../accounts/find-account.ts';
import type { ScopeDeclarer } from '../scopes/declare-scopes.ts';
import { resolveScopes } from '../scopes/resolve-scopes.ts';

export const PASSWORD_GRANT_PARAMS = ['username', 'password', 'scope'] as const;

interface PasswordParams {
  username?: string;
  password?: string;
}

export interface PasswordGrantDeps {
  authenticate: UserAuthenticator;
  accessTokenTtl: number;
  declareScopes: ScopeDeclarer;
}

export function registerPasswordGrant(provider: Provider, deps: PasswordGrantDeps): void {
  provider.registerGrantType<PasswordParams>('password', createPasswordGrant(provider, deps), PASSWORD_GRANT_PARAMS);
}

function createPasswordGrant(provider: Provider, { authenticate, accessTokenTtl, declareScopes }: PasswordGrantDeps) {
  return async function passwordGrant(ctx: TokenEndpointGrantContext<PasswordParams>): Promise<void> {
    const { client, params } = ctx.oidc;
    const missing = (['username', 'password'] as const).filter((name) => typeof params[name] !== 'string');
    if (missing.length > 0) throw new errors.InvalidRequest(`missing required parameter(s) (${missing.join(',')})`);

    const scopes = resolveScopes(client.scope ? client.scope.split(' ') : [], params.scope);
    if (!scopes.ok) throw new errors.InvalidScope(scopes.description, params.scope ?? '');
    if (scopes.scope) declareScopes(scopes.scope.split(' '));

    const user = await authenticate(params.username as string, params.password as string);
    if (!user) throw new errors.InvalidGrant('invalid username or password');
    const account = toAccount(user);
    ctx.oidc.entity('Account', account);

    const grant = new provider.Grant({ accountId: account.accountId, clientId: client.clientId });
    if (scopes.scope) grant.addOIDCScope(scopes.scope);
    const grantId = await grant.save();

    const at = new provider.AccessToken({ accountId: account.accountId, client, grantId, gty: 'password', scope: scopes.scope, expiresIn: accessTokenTtl });
    ctx.oidc.entity('AccessToken', at);
    const accessToken = await at.save();

    let refreshToken: string | undefined;
    if (client.clientAuthMethod !== 'none' && client.grantTypeAllowed('refresh_token')) {
      const rt = new provider.RefreshToken({ accountId: account.accountId, client, grantId, gty: 'password', rotations: 0, scope: scopes.scope ?? '' });
      ctx.oidc.entity('RefreshToken', rt);
      refreshToken = await rt.save();
    }

    ctx.body = {
      access_token: accessToken,
      token_type: 'bearer',
      expires_in: at.expiration,
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
      ...(scopes.scope ? { scope: scopes.scope } : {}),
    };
  };
}
