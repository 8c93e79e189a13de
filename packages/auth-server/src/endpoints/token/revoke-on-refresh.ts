/**
 * After a 200 refresh_token grant, before the answer is sent, the access tokens issued earlier under the grant die
 * (adapter/revoke-replaced-access-tokens.ts), so a client holding the new token can rely on the old one being dead.
 */
import type { Middleware } from 'koa';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { PrismaClient } from '@heroes/db';
import { revokeReplacedAccessTokens } from '../../adapter/revoke-replaced-access-tokens.ts';
import type { RevocationNotifier } from '../../notify/revocation-notifier.ts';

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
