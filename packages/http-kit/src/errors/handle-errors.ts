/**
 * Error mapping in one place: the middleware that turns anything thrown below
 * it into the JSON problem body of toProblem.
 *
 * Rules:
 * - 5xx are logged with the error, except 501 (a method no route knows,
 *   e.g. TRACE: the client's doing, not a failure of ours) and a full work
 *   queue's 503 (QueueFullError: load shedding as designed; a flood of them
 *   must not flood the error log; the request line still shows the 503)
 *   (message, stack, code, cause — payload fields dropped by
 *   serializeError); the client sees only the generic body.
 * - Headers set by the failed handler are dropped (as Koa does), except `Vary`,
 *   `X-Request-Id`, `X-Content-Type-Options` and the CORS answer headers
 *   (`Access-Control-*`): those describe the request and its origin, and
 *   without them a browser hides the error from the page (docs/http.md,
 *   "Cross-origin requests"); *   the error's own headers (e.g. `Allow`) are set.
 * - If the response has already started, nothing can be sent: log only.
 */
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { serializeError } from '../logging/serialize-error.ts';
import { QueueFullError } from './queue-full-error.ts';
import { toProblem, type ErrorTranslator } from './to-problem.ts';

/** Headers that describe the request, not the failed handler's answer. */
const KEPT_HEADERS = new Set(['vary', 'x-request-id', 'x-content-type-options']);

export function createErrorHandler(logger: Logger, translate?: ErrorTranslator): Middleware {
  return async function handleErrors(ctx, next) {
    try {
      await next();
    } catch (err) {
      const problem = toProblem(err, translate);
      if (problem.status >= 500 && problem.status !== 501 && !(err instanceof QueueFullError)) {
        logger.error({ err: serializeError(err), method: ctx.method, path: ctx.path, status: problem.status }, 'request failed');
      }
      if (ctx.headerSent || !ctx.writable) return;
      for (const name of ctx.res.getHeaderNames()) {
        if (!KEPT_HEADERS.has(name) && !name.startsWith('access-control-')) ctx.res.removeHeader(name);
      }
      ctx.set(problem.headers);
      ctx.status = problem.status;
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = Buffer.from(JSON.stringify(problem.body), 'utf8');
    }
  };
}
