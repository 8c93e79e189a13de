/**
 * DPoP (RFC 9449) at the token endpoint beyond the library's features.dPoP: a refresh token beside a bound access
 * token is bound to the same key for confidential clients too (section 5), set on the way to storage; a
 * --require-dpop client without a proof gets 400 `invalid_dpop_proof`, decided from the client and request; and the
 * server-nonce secret (section 8), the same on every replica.
 */
import { hkdfSync } from 'node:crypto';
import type { Middleware } from 'koa';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { StoreHook } from './store-hooks.ts';

export const DPOP_PROOF_REQUIRED = 'this client must send a DPoP proof (DPoP header) with every token request';

/** 32 bytes derived from the first cookie key: every replica reading the same keys file accepts the others' nonces. */
export function dpopNonceSecret(cookieKeys: readonly string[]): Buffer {
  return Buffer.from(hkdfSync('sha256', cookieKeys[0] ?? '', 'heroes', 'DPoP-Nonce secret', 32));
}

/** The RefreshToken hook: bound to the key of the access token issued beside it. */
export const bindToAccessTokenKey: StoreHook = {
  beforeStore(payload, ctx) {
    // Grants save the access token first (it is the request's AccessToken entity by then); a rotation copies `jkt` itself.
    const accessToken = ctx?.oidc?.entities?.AccessToken as { jkt?: unknown } | undefined;
    if (payload.jkt === undefined && typeof accessToken?.jkt === 'string') payload.jkt = accessToken.jkt;
  },
};

/** True when `client` must send a proof and this request has none. */
export function missingRequiredProof(client: { dpopBoundAccessTokens?: boolean } | undefined, dpopHeader: string | undefined): boolean {
  return client?.dpopBoundAccessTokens === true && !dpopHeader;
}

/** POST /auth/token, on the way out: a refused request of a --require-dpop client without a proof says why. */
export const answerMissingDpopProof: Middleware = async function answerMissingDpopProof(ctx, next) {
  await next();
  const body = ctx.body as { error?: unknown; error_description?: unknown } | undefined;
  if (ctx.status !== 400 || body?.error !== 'invalid_grant') return;
  const client = (ctx as unknown as Partial<KoaContextWithOIDC>).oidc?.client;
  if (!missingRequiredProof(client, ctx.get('DPoP'))) return;
  body.error = 'invalid_dpop_proof';
  body.error_description = DPOP_PROOF_REQUIRED;
};
