/**
 * Middleware: every request gets an `X-Request-Id`. An incoming one of 1–128 characters of [A-Za-z0-9._:-] is kept,
 * anything else replaced by a random UUID (it ends up in log lines). The id goes on the answer, in
 * `ctx.state.requestId`, in the request headers (a proxied request carries it on) and in the request context.
 * Ours, not pino-http's genReqId: the id is needed before the request log's layer (answer header, proxied request,
 * every log line through AsyncLocalStorage); pino-http's line reads it from here. Usage: app.use(createRequestId()) first.
 */
import crypto from 'node:crypto';
import type { Middleware } from 'koa';
import { requestContext } from './request-context.ts';

export const REQUEST_ID_HEADER = 'x-request-id';
const ACCEPTED = /^[A-Za-z0-9._:-]{1,128}$/;

export function createRequestId(): Middleware {
  return function requestId(ctx, next) {
    const incoming = ctx.req.headers[REQUEST_ID_HEADER];
    const id = typeof incoming === 'string' && ACCEPTED.test(incoming) ? incoming : crypto.randomUUID();
    ctx.req.headers[REQUEST_ID_HEADER] = id;
    ctx.state['requestId'] = id;
    ctx.set('X-Request-Id', id);
    return requestContext.run({ reqId: id }, next);
  };
}
