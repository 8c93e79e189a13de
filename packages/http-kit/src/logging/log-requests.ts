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
 * - The listener is bound to the request's async context, so the line
 *   carries the request id however the response was written ('close' is
 *   emitted from the socket's own context).
 */
import { AsyncResource } from 'node:async_hooks';
import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';

export function createRequestLogger(logger: Logger): Middleware {
  return async function logRequests(ctx, next) {
    logWhenClosed(ctx, logger);
    await next();
  };
}

/**
 * Writes the request's line once its response closes, timed from now; the
 * one place the line is built (the edge's forwarder adds `forwarded: true`).
 *
 * Usage: `logWhenClosed(ctx, logger, { forwarded: true })`
 */
export function logWhenClosed(ctx: Context, logger: Logger, extra: Readonly<Record<string, unknown>> = {}): void {
  const started = performance.now();
  const { method, path } = ctx;
  const client = ctx.ip;
  const res = ctx.res;
  res.once('close', AsyncResource.bind(() => {
    const ms = Math.round((performance.now() - started) * 100) / 100;
    const line = { method, path, client, status: res.headersSent ? res.statusCode : null, ms, ...extra };
    logger.info(res.writableFinished ? line : { ...line, aborted: true }, 'request');
  }));
}
