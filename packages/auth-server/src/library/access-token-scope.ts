/**
 * The one place an access token's scope is fixed, as it is stored, whatever the grant: a sub-scope refresh stores
 * exactly what was asked; never a value the client may not be granted now (`openid` kept); a token left with none is
 * refused invalid_scope, never stored unscoped. answerStoredScope reports the stored values as the answer's `scope`
 * (RFC 6749 section 5.1); both meet in the request's state.
 */
import type { Middleware } from 'koa';
import { errors, type Client } from 'oidc-provider';
import { formatScopes, mayGrant, splitScopes } from '@heroes/oauth-scopes';
import { clientAllowedScopes } from '../scopes/allowed-scopes.ts';
import { requestState } from '../request-state.ts';
import type { StoreHook } from './store-hooks.ts';

/** Finds a client by id (the library's `Client.find`). */
export type FindClient = (clientId: string) => Promise<Client | undefined>;

/** The AccessToken hook: its scope fixed before it is stored. */
export function fixAccessTokenScope(findClient: FindClient): StoreHook {
  return {
    async beforeStore(payload, ctx) {
      const clientId = String(payload.clientId);
      const client = ctx?.oidc?.client?.clientId === clientId ? ctx.oidc.client : await findClient(clientId);
      const allowed = clientAllowedScopes(client);
      const state = ctx ? requestState(ctx) : undefined;
      const values = splitScopes(state?.narrowedScope ?? payload.scope);
      const kept = values.filter((value) => mayGrant(allowed, value));
      if (kept.length === 0) throw new errors.InvalidScope('none of the requested scopes may be granted to this client any more', formatScopes(values));
      payload.scope = formatScopes(kept);
      if (state) state.storedScope = payload.scope;
    },
  };
}

/** The token answer (on its way out): `scope` is what the issued access token was stored with. */
export const answerStoredScope: Middleware = async function answerStoredScope(ctx, next) {
  await next();
  const scope = requestState(ctx).storedScope;
  const body = ctx.body as { access_token?: unknown; scope?: unknown } | undefined;
  if (scope !== undefined && ctx.status === 200 && typeof body?.access_token === 'string') body.scope = scope;
};
