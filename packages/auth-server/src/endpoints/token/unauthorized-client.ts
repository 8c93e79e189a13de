/**
 * RFC 6749 section 5.2 `unauthorized_client` at /auth/token: oidc-provider answers 400 `invalid_request` when an
 * authenticated client uses a grant type it is not registered for; that answer becomes `unauthorized_client` when
 * the client authenticated (by id if public, by a matched secret if confidential: nothing revealed otherwise),
 * decided from `ctx.oidc.client` and its grant types, never the library's wording. Other answers are left alone.
 */
import type { Middleware } from 'koa';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { requestState } from '../../request-state.ts';

const GRANT_TYPE_NOT_ALLOWED = 'requested grant type is not allowed for this client';

export const mapUnauthorizedClient: Middleware = async function mapUnauthorizedClient(ctx, next) {
  await next();
  const body = ctx.body as { error?: unknown; error_description?: unknown } | undefined;
  if (ctx.status !== 400 || body?.error !== 'invalid_request') return;
  const client = (ctx as unknown as Partial<KoaContextWithOIDC>).oidc?.client;
  const grantType = requestState(ctx).form?.['grant_type'];
  if (!client || typeof grantType !== 'string' || client.grantTypeAllowed(grantType)) return;
  const authenticated = client.clientAuthMethod === 'none' || requestState(ctx).secretMatchedClient === client.clientId;
  if (!authenticated) return;
  body.error = 'unauthorized_client';
  body.error_description = GRANT_TYPE_NOT_ALLOWED;
};
