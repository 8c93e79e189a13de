/**
 * The token adapter's audit events, named from the request being answered (`Provider.ctx`): token.issued (reason:
 * its grant type), token.revoked (POST /auth/revoke), refresh.reused (a consumed refresh token presented again, or
 * the loser of a race); each names the user id, client, address and request id.
 */
import Provider, { type AdapterPayload, type KoaContextWithOIDC } from 'oidc-provider';
import type { AuditEvent } from '@heroes/db';
import { clientAddressOf } from '@heroes/platform';

type TokenModel = 'AccessToken' | 'RefreshToken' | 'AuthorizationCode';

function currentContext(): KoaContextWithOIDC | undefined {
  return Provider.ctx as KoaContextWithOIDC | undefined;
}

function userIdOf(accountId: unknown): number | undefined {
  return typeof accountId === 'string' && /^\d{1,10}$/.test(accountId) ? Number(accountId) : undefined;
}

function origin(ctx: KoaContextWithOIDC | undefined): Pick<AuditEvent, 'address'> {
  return ctx?.req ? { address: clientAddressOf(ctx).address } : {};
}

/** The token.issued event of a stored access token. */
export function tokenIssuedEvent(payload: AdapterPayload): AuditEvent {
  return {
    type: 'token.issued',
    userId: userIdOf(payload.accountId),
    clientId: typeof payload.clientId === 'string' ? payload.clientId : undefined,
    ...origin(currentContext()),
    // gty lists the grants that led here (`password refresh_token`): the last one issued this token.
    reason: typeof payload.gty === 'string' ? `${payload.gty.split(' ').at(-1)} grant` : undefined,
  };
}

/** The event of deleting one token of `model` in the current request, if it is one to record. */
export function tokenDestroyedEvent(model: TokenModel): AuditEvent | undefined {
  const ctx = currentContext();
  const oidc = ctx?.oidc;
  if (!oidc) return undefined;
  if (oidc.route === 'revocation' && model !== 'AuthorizationCode') {
    const token = oidc.entities[model];
    return { type: 'token.revoked', userId: userIdOf(token?.accountId), clientId: token?.clientId ?? oidc.client?.clientId, ...origin(ctx), reason: 'revoked by its client (RFC 7009)' };
  }
  const refreshToken = oidc.entities.RefreshToken;
  if (model === 'RefreshToken' && oidc.params?.['grant_type'] === 'refresh_token' && refreshToken?.consumed) {
    return refreshReusedEvent(refreshToken.accountId, refreshToken.clientId);
  }
  return undefined;
}

/** refresh.reused: the refresh token was used before; its grant is revoked. */
export function refreshReusedEvent(accountId: unknown, clientId: string | undefined): AuditEvent {
  return { type: 'refresh.reused', userId: userIdOf(accountId), clientId, ...origin(currentContext()), reason: 'refresh token used again: its grant revoked' };
}
