/**
 * Error mapping in one place: anything thrown below becomes toProblem's JSON body. 5xx are logged (serialized
 * without payloads) except 501 and QueueFullError (load shedding must not flood the log); the client sees the
 * generic body. The failed handler's headers are dropped except `Vary`, `X-Request-Id`, nosniff and CORS (without
 * them a browser hides the error; docs/http.md); the error's own headers are set. Once the answer started: log only.
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
