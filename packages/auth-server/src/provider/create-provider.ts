/**
 * The oidc-provider instance: configuration of everything the library
 * decides for us.
 *
 * Rules enforced here:
 * - off: devInteractions (it accepts any password), implicit flow, userinfo,
 *   logout, dynamic registration, resource indicators, client credentials,
 *   pushed authorization requests, DPoP (nothing here would use them, or
 *   our own code does it: provider/client-credentials-grant.ts);
 * - response type `code` only; grants password and client_credentials
 *   (ours), authorization_code and refresh_token, each client only those it
 *   is registered for (clients/grant-types.ts); client auth
 *   client_secret_basic/post and none;
 * - keys from configuration (never the development keys);
 * - refresh tokens only for clients with a secret, rotated on every use
 *   (RFC 9700 section 4.14.2): a reused one revokes the whole grant (the
 *   library's replay check, made atomic in adapter/token-adapter.ts);
 *   PKCE S256 required for public clients;
 * - introspection: the resource server's client for any token, any other
 *   confidential client only for its own tokens, public clients never
 *   (RFC 7662 2.1); revocation: a client's own tokens (public clients
 *   included, RFC 7009 2.1); another client's token is left alone with the
 *   same 200 as an unknown token, so the answer reveals nothing about it;
 * - access token lifetimes: ACCESS_TOKEN_TTL for the password grant (and
 *   its refreshes), CODE_ACCESS_TOKEN_TTL after a code exchange;
 * - browser calls to token/revoke/introspect only from the client's
 *   allowed origins (provider/client-cors.ts);
 * - ID tokens (code flow with `openid`, see code/mint-code.ts) signed with
 *   the configured keys (RS256), living DEFAULTS.idTokenTtl;
 * - every access token's scope fixed as it is stored, whatever the grant
 *   (provider/access-token-scope.ts, around the adapter), and its audience
 *   (`aud`, RFC 8707) the hero API (provider/access-token-audience.ts).
 */
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { DEFAULTS } from '../config/defaults.ts';
import type { AuthServerConfig } from '../config/load-config.ts';
import { publishedKeys, type ProviderKeys } from '../config/keys.ts';
import type { HeroesAccount } from '../accounts/find-account.ts';
import { OPENID, resourceIdentifier } from '@heroes/oauth-scopes';
import { withAccessTokenAudience } from './access-token-audience.ts';
import { ALLOWED_SCOPES_PROPERTY } from '../scopes/allowed-scopes.ts';
import { withAccessTokenScope, type AdapterFactory } from './access-token-scope.ts';
import { allowedOriginsMetadata, clientBasedCORS } from './client-cors.ts';
import { ROUTES } from './routes.ts';

export interface ProviderDeps {
  config: AuthServerConfig;
  keys: ProviderKeys;
  adapter: AdapterFactory;
  findAccount: NonNullable<Configuration['findAccount']>;
}

export function createProvider({ config, keys, adapter, findAccount }: ProviderDeps): Provider {
  const configuration: Configuration = {
    // Called once per model, after `provider` exists.
    // and every access token's audience, the hero API (provider/access-token-audience.ts).
    adapter: withAccessTokenAudience(withAccessTokenScope(adapter, (clientId) => provider.Client.find(clientId)), resourceIdentifier(config.publicBaseUrl)),
    findAccount,
    // The first key signs; retired ones verify while what they signed lives (config/keys.ts).
    jwks: publishedKeys(keys),
    cookies: { keys: keys.cookieKeys },
    clients: [],
    clientBasedCORS,
    // The library's static list: only `openid` (ID tokens). The catalogue is
    // ours (scopes/scope-catalogue.ts) and what a client may be granted
    // travels as `allowed_scopes` (adapter/client-metadata.ts); its web
    // origins as `allowed_origins` (provider/client-cors.ts).
    scopes: [OPENID],
    extraClientMetadata: { ...allowedOriginsMetadata, properties: [ALLOWED_SCOPES_PROPERTY, ...(allowedOriginsMetadata.properties ?? [])] },
    responseTypes: ['code'],
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    pkce: { required: (_ctx, client) => client.clientAuthMethod === 'none' },
    issueRefreshToken: async (_ctx, client) => client.clientAuthMethod !== 'none' && client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    // The introspection `username` member, stored with the token (no read per introspection),
    // and `grant_id`: resource servers evict a revoked grant's cached tokens by it (notify/revocation-notifier.ts).
    extraTokenClaims: async (ctx, token) => {
      const accountId = 'accountId' in token ? token.accountId : undefined;
      if (!accountId) return undefined;
      const known = ctx?.oidc?.entities?.Account as HeroesAccount | undefined;
      const account = known?.accountId === accountId ? known : ((await findAccount(ctx, accountId)) as HeroesAccount | undefined);
      const grant = 'grantId' in token && typeof token.grantId === 'string' ? { grant_id: token.grantId } : {};
      return account ? { username: account.username, ...grant } : undefined;
    },
    ttl: {
      AccessToken: (_ctx, token) => (token.gty?.startsWith('password') ? config.accessTokenTtl : config.codeAccessTokenTtl),
      AuthorizationCode: config.authCodeTtl,
      RefreshToken: config.refreshTokenTtl,
      IdToken: DEFAULTS.idTokenTtl,
      Grant: config.refreshTokenTtl,
    },
    routes: {
      token: ROUTES.token,
      revocation: ROUTES.revocation,
      introspection: ROUTES.introspection,
      jwks: ROUTES.jwks,
      authorization: ROUTES.authorization,
      end_session: '/auth/internal/end-session',
      userinfo: '/auth/internal/userinfo',
      registration: '/auth/internal/registration',
      code_verification: '/auth/internal/device',
      device_authorization: '/auth/internal/device/auth',
      pushed_authorization_request: '/auth/internal/par',
      backchannel_authentication: '/auth/internal/backchannel',
      challenge: '/auth/internal/challenge',
    },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      registration: { enabled: false },
      resourceIndicators: { enabled: false },
      clientCredentials: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      dPoP: { enabled: false },
      revocation: {
        enabled: true,
        // RFC 7009 2.1: only the client the token was issued to may revoke it. Another client's token is
        // not revoked, and the answer is the 200 of an invalid token (2.2), so validity is not revealed.
        allowedPolicy: async (_ctx: KoaContextWithOIDC, client, token) => token.clientId === client.clientId,
      },
      introspection: {
        enabled: true,
        // RFC 7662 2.1: public clients are refused before this (middleware/introspection-guard.ts); never here either.
        allowedPolicy: async (_ctx: KoaContextWithOIDC, client, token) =>
          client.clientAuthMethod !== 'none' && (client.clientId === config.resourceServerClientId || token.clientId === client.clientId),
      },
    },
  };
  const provider: Provider = new Provider(config.publicBaseUrl, configuration);
  provider.proxy = true;
  return provider;
}
