/**
 * After a successful refresh_token grant at /auth/token, the access tokens
 * issued earlier under the same grant stop working (Aqueduct overwrites
 * the access token on refresh; see adapter/revoke-replaced-access-tokens.ts).
 *
 * Rules enforced here:
 * - only a 200 answer of the refresh_token grant, once the library has
 *   stored the new access token, and before the answer is sent: a client
 *   that got the new token can rely on the old one being dead;
 * - the new access token is kept, and the new refresh token (rotated, see
 *   provider/create-provider.ts).
 */
import type { Middleware } from 'koa';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { PrismaClient } from '@heroes/db';
import { revokeReplacedAccessTokens } from '../adapter/revoke-replaced-access-tokens.ts';
import type { RevocationNotifier } from '../notify/revocation-notifier.ts';

export function createRevokeOnRefresh(db: PrismaClient, notify: RevocationNotifier): Middleware {
  return async function revokeOnRefresh(ctx, next) {
    await next();
    const { oidc } = ctx as unknown as Partial<KoaContextWithOIDC>;
    if (ctx.status !== 200 || oidc?.params?.['grant_type'] !== 'refresh_token') return;
    const grantId = oidc.entities.RefreshToken?.grantId;
    const issued = oidc.entities.AccessToken?.jti;
    if (grantId && issued) await revokeReplacedAccessTokens(db, notify, grantId, issued);
  };
}
