/**
 * The password grant (RFC 6749 section 4.3; docs/oauth.md), after the library authenticated the client: username and
 * password required; scope within the allowed scopes, checked before the hash; unknown user or wrong password one
 * invalid_grant; throttled 429, hash queue full 503 (`temporarily_unavailable`, Retry-After, no password checked); a
 * DPoP proof checked first and binding the tokens; the answer always carries `scope`.
 */
import { formatScopes } from '@heroes/oauth-scopes';
import { QueueFullError, RetryLaterError } from '@heroes/http-kit';
import { errors } from 'oidc-provider';
import type Provider from 'oidc-provider';
import type { TokenEndpointGrantContext } from 'oidc-provider';
import { clientAddressOf } from '@heroes/platform';
import type { ThrottledAuthenticator } from '../throttle/throttled-authenticator.ts';
import type { AuthenticatedUser } from '../accounts/authenticate-user.ts';
import { toAccount } from '../accounts/find-account.ts';
import { providerTemporarilyUnavailable } from '../common/temporarily-unavailable.ts';
import { clientAllowedScopes } from '../scopes/allowed-scopes.ts';
import { resolveScopes } from '../scopes/resolve-scopes.ts';
import { checkDpopProofReplay, validateDpopProof, type DpopProofResult } from './library-seams.ts';
import { DPOP_PROOF_REQUIRED, missingRequiredProof } from './dpop-binding.ts';

const PASSWORD_GRANT_PARAMS = ['username', 'password', 'scope'] as const;

interface PasswordParams {
  username?: string;
  password?: string;
}

export interface PasswordGrantDeps {
  authenticate: ThrottledAuthenticator;
  accessTokenTtl: number;
}

export function registerPasswordGrant(provider: Provider, deps: PasswordGrantDeps): void {
  provider.registerGrantType<PasswordParams>('password', createPasswordGrant(provider, deps), PASSWORD_GRANT_PARAMS);
}

function createPasswordGrant(provider: Provider, { authenticate, accessTokenTtl }: PasswordGrantDeps) {
  return async function passwordGrant(ctx: TokenEndpointGrantContext<PasswordParams>): Promise<void> {
    const { client, params } = ctx.oidc;
    const missing = (['username', 'password'] as const).filter((name) => typeof params[name] !== 'string');
    if (missing.length > 0) throw new errors.InvalidRequest(`missing required parameter(s) (${missing.join(',')})`);

    const resolved = resolveScopes(clientAllowedScopes(client), params.scope);
    if (!resolved.ok) throw new errors.InvalidScope(resolved.description, params.scope ?? '');
    const scope = formatScopes(resolved.scopes);

    const dPoP = await validateDpopProof(provider, ctx);
    if (!dPoP && missingRequiredProof(client, ctx.get('DPoP'))) throw new errors.InvalidDpopProof(DPOP_PROOF_REQUIRED);
    if (dPoP) await checkDpopProofReplay(provider, ctx, dPoP, client.clientId);

    // The grant and its tokens are written beside the throttle's record of the success (throttle/throttled-authenticator.ts).
    const issued = await authenticate(params.username as string, params.password as string, { address: clientAddressOf(ctx).address, clientId: client.clientId }, (user) => issue(ctx, user, scope, dPoP)).catch((err: unknown) => {
      if (err instanceof QueueFullError) throw providerTemporarilyUnavailable(ctx, err, 'too many logins at once; retry later');
      if (err instanceof RetryLaterError) throw providerTemporarilyUnavailable(ctx, err);
      throw err;
    });
    if (!issued) throw new errors.InvalidGrant('invalid username or password');
    ctx.body = issued;
  };

  async function issue(ctx: TokenEndpointGrantContext<PasswordParams>, user: AuthenticatedUser, scope: string, dPoP: DpopProofResult | undefined) {
    const { client } = ctx.oidc;
    const account = toAccount(user);
    ctx.oidc.entity('Account', account);

    const grant = new provider.Grant({ accountId: account.accountId, clientId: client.clientId });
    grant.addOIDCScope(scope);
    const grantSaved = grant.save();
    // save() draws the grant's id before it first waits: the tokens that carry it are written
    // beside the grant, three writes in one round trip instead of three in a row. If any fails
    // the request fails, and a token row written meanwhile stays unknown to anyone until it expires.
    const grantId = grant.jti || (await grantSaved);

    const at = new provider.AccessToken({ accountId: account.accountId, client, grantId, gty: 'password', scope, expiresIn: accessTokenTtl });
    if (dPoP) at.setThumbprint('jkt', dPoP.thumbprint);
    ctx.oidc.entity('AccessToken', at);
    let rt: InstanceType<Provider['RefreshToken']> | undefined;
    if (client.clientAuthMethod !== 'none' && client.grantTypeAllowed('refresh_token')) {
      rt = new provider.RefreshToken({ accountId: account.accountId, client, grantId, gty: 'password', rotations: 0, scope, ...(dPoP ? { jkt: dPoP.thumbprint } : {}) });
      ctx.oidc.entity('RefreshToken', rt);
    }
    const [, accessToken, refreshToken] = await Promise.all([grantSaved, at.save(), rt?.save()]);

    return {
      access_token: accessToken,
      token_type: dPoP ? 'DPoP' : 'bearer',
      expires_in: at.expiration,
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
      scope: at.scope,
    };
  }
}

