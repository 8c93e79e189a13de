/**
 * The one place where an access token's scope is fixed, just before it is
 * stored, whatever the grant (password, authorization_code, refresh_token).
 *
 * Rules enforced here:
 * - a refresh narrowed to a sub-scope stores exactly the requested values
 *   (provider/refresh-sub-scope.ts);
 * - a token never carries a value its client may not be granted now
 *   (its allowed scopes, read from its row on this request, see
 *   scopes/allowed-scopes.ts): narrowing a client with `auth set-scopes`
 *   applies at its next refresh (and to codes not yet exchanged);
 *   `openid` is kept (an ID token was asked for; it is no authority);
 * - a token left with no value is refused (invalid_scope), never stored
 *   unscoped: an empty scope grants nothing, and saying so beats a token
 *   that silently cannot do anything. After a refresh token rotation this
 *   ends the refresh chain, which can grant nothing any more anyway.
 */
import Provider, { errors } from 'oidc-provider';
import { formatScopes, mayGrant, splitScopes } from '@heroes/oauth-scopes';
import { clientAllowedScopes } from '../scopes/allowed-scopes.ts';
import { beforeAccessTokenSave } from './library-seams.ts';
import { narrowedScope } from './refresh-sub-scope.ts';

export function installAccessTokenScope(provider: Provider): void {
  beforeAccessTokenSave(provider, async function grantScope(token) {
    const ctx = Provider.ctx;
    const current = ctx?.oidc?.client?.clientId === token.clientId ? ctx?.oidc?.client : await provider.Client.find(String(token.clientId));
    const allowed = clientAllowedScopes(current);
    const values = splitScopes((ctx ? narrowedScope(ctx.req) : undefined) ?? token.scope);
    const kept = values.filter((value) => mayGrant(allowed, value));
    if (kept.length === 0) throw new errors.InvalidScope('none of the requested scopes may be granted to this client any more', formatScopes(values));
    token.scope = formatScopes(kept);
  });
}
