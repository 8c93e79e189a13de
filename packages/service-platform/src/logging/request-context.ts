/**
 * The request a piece of code runs for, without passing it around:
 * AsyncLocalStorage holds `{ reqId }` for everything a request causes
 * (handlers, library callbacks, outgoing calls), so createLogger() puts the
 * id on every log line written meanwhile and outgoing calls can forward it.
 *
 * Usage:
 *   requestContext.run({ reqId }, next);
 *   const id = currentRequestId(); // undefined outside a request
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface RequestContext {
  reqId: string;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.reqId;
}
