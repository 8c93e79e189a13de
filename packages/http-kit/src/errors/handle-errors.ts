/**
 * Error mapping in one place: the middleware that turns anything thrown below
 * it into the JSON problem body of toProblem.
 *
 * Rules:
 * - 5xx are logged with the error, except 501 (a method no route knows,
 *   e.g. TRACE: the client's doing, not a failure of ours) (message, stack, code, cause — payload fields
 *   dropped by serializeError); the client sees only the generic body.
 * - Headers set by the failed handler are dropped (as Koa does), except `Vary`,
 *   `X-Request-Id` and `X-Content-Type-Options`;
 *   the error's own headers (e.g. `Allow`) are set.
 * - If the response has already started, nothing can be sent: log only.
 */
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { serializeError } from '../logging/serialize-error.ts';
import { toProblem } from './to-problem.ts';

/** Headers that describe the request, not the failed handler's answer. */
const KEPT_HEADERS = new Set(['vary', 'x-request-id', 'x-content-type-options']);

export function createErrorHandler(logger: Logger): Middleware {
  return async function handleErrors(ctx, next) {
    try {
      await next();
    } catch (err) {
      const problem = toProblem(err);
      if (problem.status >= 500 && problem.status !== 501) {
        logger.error({ err: serializeError(err), method: ctx.method, path: ctx.path, status: problem.status }, 'request failed');
      }
      if (ctx.headerSent || !ctx.writable) return;
      for (const name of ctx.res.getHeaderNames()) {
        if (!KEPT_HEADERS.has(name)) ctx.res.removeHeader(name);
      }
      ctx.set(problem.headers);
      ctx.status = problem.status;
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = Buffer.from(JSON.stringify(problem.body), 'utf8');
    }
  };
}
