/**
 * One log line per request when the response closes: `{ method, path, client, status, ms }` (`aborted` when it did
 * not finish). `status` is what was sent (`null` if no header went out); `path` without the query (it may hold
 * secrets); headers and bodies never. 'close' runs outside the request's context: `reqId` is read when the request
 * starts, and the line is written in the context of that moment (the trace ids of docs/operations.md, "Tracing").
 * Kept over pino-http: with it GET /heroes missed its CPU goal in a same-run A/B (docs/performance.md, "Current figures").
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import { currentRequestId } from './request-context.ts';

export function createRequestLogger(logger: Logger): Middleware {
  return function logRequests(ctx, next) {
    logWhenClosed(ctx, logger);
    return next();
  };
}

/**
 * Writes the request's line once its response closes, timed from now; the
 * one place the line is built (the edge's forwarder adds `forwarded: true`).
 *
 * Usage: `logWhenClosed(ctx, logger, { forwarded: true })`
 */
export function logWhenClosed(ctx: Context, logger: Logger, extra?: Readonly<Record<string, unknown>>): void {
  const started = performance.now();
  const { method, path } = ctx;
  const client = ctx.ip;
  const reqId = currentRequestId();
  const res = ctx.res;
  const inRequestContext = AsyncLocalStorage.snapshot();
  res.once('close', () => inRequestContext(() => {
    const ms = Math.round((performance.now() - started) * 100) / 100;
    const status = res.headersSent ? res.statusCode : null;
    // Built once, in its final shape: no spread copies per request (a request's line is the busiest path of the logger).
    const line: Record<string, unknown> = reqId === undefined ? { method, path, client, status, ms } : { reqId, method, path, client, status, ms };
    if (extra !== undefined) Object.assign(line, extra);
    if (!res.writableFinished) line['aborted'] = true;
    logger.info(line, 'request');
  }));
}
