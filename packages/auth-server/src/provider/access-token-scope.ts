/**
 * `openid` asks for an ID token (OpenID Connect Core 3.1.2.1); it is not a
 * permission at the resource server. The library copies the code's scope,
 * `openid` included, into the access token; the resource server reads any
 * non-empty scope as a restriction, so a client without allowed scopes
 * (unscoped tokens, full access) would get a token limited to "openid".
 *
 * Rules enforced here:
 * - every access token is stored without `openid` in its scope (code and
 *   refresh grants; our password grant never adds it), so introspection
 *   and the token response show only this service's scopes;
 * - the grant, the code and the refresh token keep `openid`, so ID tokens
 *   are issued at the code exchange and at each refresh.
 */
import type Provider from 'oidc-provider';

interface ScopedToken {
  scope?: string | undefined;
}

/** `scope` without the `openid` value. Usage: `withoutOpenid('openid heroes:read')` → 'heroes:read' */
export function withoutOpenid(scope: string): string {
  return scope.split(' ').filter((value) => value !== '' && value !== 'openid').join(' ');
}

export function installAccessTokenScope(provider: Provider): void {
  const proto = provider.AccessToken.prototype as unknown as ScopedToken & { save(this: ScopedToken): Promise<string> };
  const save = proto.save;
  proto.save = function saveWithoutOpenid() {
    if (typeof this.scope === 'string') this.scope = withoutOpenid(this.scope);
    return save.call(this);
  };
}
