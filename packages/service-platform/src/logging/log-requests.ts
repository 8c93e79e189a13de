/**
 * One structured log line per request, written when the response closes:
 * `{ method, path, client, status, ms }` (plus `aborted: true` when the
 * response did not finish); `client` is `ctx.ip`, the client address under
 * the one rule when createClientAddress runs first (address/client-address.ts).
 *
 * Rules:
 * - `status` is the status actually sent: `null` when the connection closed
 *   before any response header went out (Koa's default 404, or the status a
 *   handler set too late, was never seen by the client).
 * - `path` is taken without the query string (queries may hold secrets).
 * - Headers and bodies are never logged.
 * - The line carries the request id (`reqId`), read when the request
 *   starts: 'close' is emitted from the socket's own async context, where
 *   the request context is gone (binding the listener to the request's
 *   context instead cost an async resource per request).
 */
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
  res.once('close', () => {
    const ms = Math.round((performance.now() - started) * 100) / 100;
    const status = res.headersSent ? res.statusCode : null;
    // Built once, in its final shape: no spread copies per request (a request's line is the busiest path of the logger).
    const line: Record<string, unknown> = reqId === undefined ? { method, path, client, status, ms } : { reqId, method, path, client, status, ms };
    if (extra !== undefined) Object.assign(line, extra);
    if (!res.writableFinished) line['aborted'] = true;
    logger.info(line, 'request');
  });
}
