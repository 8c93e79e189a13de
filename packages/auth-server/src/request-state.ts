/**
 * What one step of a request tells a later one, including oidc-provider's hooks (which reach the request through
 * `Provider.ctx`): Koa's `ctx.state`, typed here once. No step keeps a per-request value anywhere else.
 */
import type { FormValue } from '@heroes/http-kit';

export interface RequestState {
  /** The form body as we read it (library/read-provider-form.ts); steps adjust it in place and the library reads it. */
  form?: Record<string, FormValue>;
  /** A sub-scope refresh: the exact scope its access token is stored with (endpoints/token/refresh-sub-scope.ts). */
  narrowedScope?: string;
  /** The scope the access token issued on this request was stored with (library/access-token-scope.ts). */
  storedScope?: string;
  /** The client whose secret matched on this request (library/library-seams.ts, seam 2). */
  secretMatchedClient?: string;
  /** The error oidc-provider's `server_error` event reported while answering (common/database-outage.ts). */
  serverError?: unknown;
}

/** The request's state; `ctx` is a Koa context (ours, or the library's `Provider.ctx`, the same object). */
export function requestState(ctx: { state: unknown }): RequestState {
  return ctx.state as RequestState;
}
