/**
 * Middleware: every request gets an id, `X-Request-Id`.
 * - an incoming `X-Request-Id` of 1–128 characters from [A-Za-z0-9._:-] is
 *   kept (a load balancer's or the edge's), anything else is replaced by a
 *   random UUID: the id ends up in log lines, so it must stay harmless;
 * - the id goes on the answer, into `ctx.state.requestId`, into the request
 *   headers (so a proxied request carries it on), and into the request
 *   context, so every log line written for the request carries `reqId`.
 *
 * Usage:
 *   app.use(createRequestId()); // first
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
