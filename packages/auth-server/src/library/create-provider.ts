/**
 * The oidc-provider instance, everything the library decides for us: off what we do not use or do ourselves; DPoP
 * at every grant with a nonce every replica accepts (dpop-binding.ts); response type `code`; grants per client; our
 * keys; refresh tokens for secret clients only, rotated, a reuse revoking the grant (RFC 9700 section 4.14.2); PKCE
 * S256 for public clients; introspection and revocation that reveal nothing of other clients' tokens; CORS per client.
 */
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { DEFAULTS } from '../config/defaults.ts';
import type { AuthServerConfig } from '../config/auth-server-config.ts';
import { publishedKeys, type ProviderKeys } from '../config/keys.ts';
import type { HeroesAccount } from '../accounts/find-account.ts';
import { DPOP_SIGNING_ALGS, OPENID, resourceIdentifier } from '@heroes/oauth-scopes';
import { accessTokenAudience } from './access-token-audience.ts';
import { bindToAccessTokenKey, dpopNonceSecret } from './dpop-binding.ts';
import { ALLOWED_SCOPES_PROPERTY } from '../scopes/allowed-scopes.ts';
import { fixAccessTokenScope } from './access-token-scope.ts';
import { withStoreHooks, type AdapterFactory } from './store-hooks.ts';
import { allowedOriginsMetadata, clientBasedCORS } from './client-cors.ts';
import { ROUTES } from '../common/routes.ts';

export interface ProviderDeps {
  config: AuthServerConfig;
  keys: ProviderKeys;
  adapter: AdapterFactory;
  findAccount: NonNullable<Configuration['findAccount']>;
}

export function createProvider({ config, keys, adapter, findAccount }: ProviderDeps): Provider {
  const configuration: Configuration = {
    // Called once per model, after `provider` exists.
    adapter: withStoreHooks(adapter, {
      AccessToken: [accessTokenAudience(resourceIdentifier(config.publicBaseUrl)), fixAccessTokenScope((clientId) => provider.Client.find(clientId))],
      RefreshToken: [bindToAccessTokenKey],
    }),
    findAccount,
    // The first key signs; retired ones verify while what they signed lives (config/keys.ts).
    jwks: publishedKeys(keys),
    cookies: { keys: keys.cookieKeys },
    clients: [],
    clientBasedCORS,
    // The library's static list: only `openid` (ID tokens). The catalogue is
    // ours (scopes/scope-catalogue.ts) and what a client may be granted
    // travels as `allowed_scopes` (adapter/client-metadata.ts); its web
    // origins as `allowed_origins` (library/client-cors.ts).
    scopes: [OPENID],
    extraClientMetadata: { ...allowedOriginsMetadata, properties: [ALLOWED_SCOPES_PROPERTY, ...(allowedOriginsMetadata.properties ?? [])] },
    responseTypes: ['code'],
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    pkce: { required: (_ctx, client) => client.clientAuthMethod === 'none' },
    issueRefreshToken: async (_ctx, client) => client.clientAuthMethod !== 'none' && client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    enabledJWA: { dPoPSigningAlgValues: [...DPOP_SIGNING_ALGS] as NonNullable<NonNullable<Configuration['enabledJWA']>['dPoPSigningAlgValues']> },
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
      dPoP: {
        enabled: true,
        nonceSecret: dpopNonceSecret(keys.cookieKeys),
        requireNonce: () => config.dpopRequireNonce,
        allowReplay: false,
      },
      revocation: {
        enabled: true,
        // RFC 7009 2.1: only the client the token was issued to may revoke it. Another client's token is
        // not revoked, and the answer is the 200 of an invalid token (2.2), so validity is not revealed.
        allowedPolicy: async (_ctx: KoaContextWithOIDC, client, token) => token.clientId === client.clientId,
      },
      introspection: {
        enabled: true,
        // RFC 7662 2.1: public clients are refused before this (endpoints/introspection/introspection-guard.ts); never here either.
        allowedPolicy: async (_ctx: KoaContextWithOIDC, client, token) =>
          client.clientAuthMethod !== 'none' && (client.clientId === config.resourceServerClientId || token.clientId === client.clientId),
      },
    },
  };
  const provider: Provider = new Provider(config.publicBaseUrl, configuration);
  provider.proxy = true;
  return provider;
}
