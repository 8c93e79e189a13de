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
import { formatScopes, isGranted, OPENID } from '@heroes/oauth-scopes';
import { clientAllowedScopes } from '../scopes/allowed-scopes.ts';
import { narrowedScope } from './refresh-sub-scope.ts';

interface ScopedToken {
  clientId?: string;
  scope?: string | undefined;
  save(): Promise<string>;
}

export function installAccessTokenScope(provider: Provider): void {
  const proto = provider.AccessToken.prototype as unknown as ScopedToken;
  const save = proto.save;
  proto.save = async function saveWithGrantedScope(this: ScopedToken) {
    const ctx = Provider.ctx;
    const current = ctx?.oidc?.client?.clientId === this.clientId ? ctx?.oidc?.client : await provider.Client.find(String(this.clientId));
    const allowed = clientAllowedScopes(current);
    const values = splitScope((ctx ? narrowedScope(ctx.req) : undefined) ?? this.scope);
    const kept = values.filter((value) => value === OPENID || isGranted(allowed, value));
    if (kept.length === 0) throw new errors.InvalidScope('none of the requested scopes may be granted to this client any more', formatScopes(values));
    this.scope = formatScopes(kept);
    return save.call(this);
  };
}

function splitScope(scope: string | undefined): string[] {
  return (scope ?? '').split(' ').filter(Boolean);
}
