/**
 * The one place an access token's scope is fixed, as it is stored, whatever the grant: a sub-scope refresh stores
 * exactly what was asked; never a value the client may not be granted now (`openid` kept); a token left with none is
 * refused invalid_scope, never stored unscoped. Documented API only (the `AccessToken` adapter's upsert, wrapped;
 * `Provider.ctx`); answerStoredScope reports the stored values as the answer's `scope` (RFC 6749 section 5.1).
 */
import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import Provider, { errors, type Adapter, type AdapterPayload, type Client } from 'oidc-provider';
import { formatScopes, mayGrant, splitScopes } from '@heroes/oauth-scopes';
import { clientAllowedScopes } from '../scopes/allowed-scopes.ts';
import { narrowedScope } from './refresh-sub-scope.ts';

/** The adapter factory oidc-provider takes (`adapter` of its Configuration): one adapter per model. */
export type AdapterFactory = (model: string) => Adapter;

/** Finds a client by id (the library's `Client.find`). */
export type FindClient = (clientId: string) => Promise<Client | undefined>;

/** The scope stored for the access token issued on a request. */
const storedScope = new WeakMap<IncomingMessage, string>();

/** `adapters`, with every access token's scope fixed before it is stored. */
export function withAccessTokenScope(adapters: AdapterFactory, findClient: FindClient): AdapterFactory {
  // A plain function: the library calls a factory with or without `new`.
  return function createScopedAdapter(model: string): Adapter {
    const adapter = adapters(model);
    return model === 'AccessToken' ? new ScopedAccessTokens(adapter, findClient) : adapter;
  };
}

class ScopedAccessTokens implements Adapter {
  constructor(private readonly stored: Adapter, private readonly findClient: FindClient) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<undefined | void> {
    const ctx = Provider.ctx;
    const clientId = String(payload.clientId);
    const client = ctx?.oidc?.client?.clientId === clientId ? ctx.oidc.client : await this.findClient(clientId);
    const allowed = clientAllowedScopes(client);
    const values = splitScopes((ctx ? narrowedScope(ctx.req) : undefined) ?? payload.scope);
    const kept = values.filter((value) => mayGrant(allowed, value));
    if (kept.length === 0) throw new errors.InvalidScope('none of the requested scopes may be granted to this client any more', formatScopes(values));
    payload.scope = formatScopes(kept);
    if (ctx) storedScope.set(ctx.req, payload.scope);
    return this.stored.upsert(id, payload, expiresIn);
  }

  find(id: string) { return this.stored.find(id); }
  findByUserCode(userCode: string) { return this.stored.findByUserCode(userCode); }
  findByUid(uid: string) { return this.stored.findByUid(uid); }
  consume(id: string) { return this.stored.consume(id); }
  destroy(id: string) { return this.stored.destroy(id); }
  revokeByGrantId(grantId: string) { return this.stored.revokeByGrantId(grantId); }
}

/** The token answer (on its way out): `scope` is what the issued access token was stored with. */
export const answerStoredScope: Middleware = async function answerStoredScope(ctx, next) {
  await next();
  const scope = storedScope.get(ctx.req);
  const body = ctx.body as { access_token?: unknown; scope?: unknown } | undefined;
  if (scope !== undefined && ctx.status === 200 && typeof body?.access_token === 'string') body.scope = scope;
};
