/**
 * The request a piece of code runs for, without passing it around: AsyncLocalStorage holds `{ reqId }` for all a
 * request causes, so log lines and outgoing calls carry the id.
 * Usage: requestContext.run({ reqId }, next); currentRequestId() // undefined outside a request
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface RequestContext {
  reqId: string;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.reqId;
}
