/**
 * One log line per request through pino-http, written when its answer ends or its connection closes:
 * `{ reqId, method, path, client, status, ms }` at info, `aborted` when it did not finish, `status` null when no header
 * went out. `path` without the query (it may hold secrets), taken as the request came in; headers and bodies never.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import { pinoHttp, type HttpLogger } from 'pino-http';
import { currentRequestId } from './request-context.ts';

interface Started {
  method: string;
  path: string;
  client: string;
  extra: Readonly<Record<string, unknown>> | undefined;
}
type LoggedRequest = IncomingMessage & { started?: Started };

// One pino-http instance per logger (its options are fixed), not per request.
const httpLoggers = new WeakMap<Logger, HttpLogger<IncomingMessage, ServerResponse>>();

function lineOf(req: LoggedRequest, res: ServerResponse, ms: number): Record<string, unknown> {
  const { method, path, client, extra } = req.started!;
  const line: Record<string, unknown> = { method, path, client, status: res.headersSent ? res.statusCode : null, ms };
  if (extra !== undefined) Object.assign(line, extra);
  if (!res.writableFinished) line['aborted'] = true;
  return line;
}

function httpLoggerOf(logger: Logger): HttpLogger<IncomingMessage, ServerResponse> {
  let httpLogger = httpLoggers.get(logger);
  if (httpLogger === undefined) {
    httpLogger = pinoHttp({
      logger,
      quietReqLogger: true,
      quietResLogger: true,
      customAttributeKeys: { reqId: 'reqId' },
      // The id createRequestId gave the request (its context ends before the answer does).
      genReqId: () => currentRequestId() as string,
      customLogLevel: () => 'info',
      customSuccessMessage: () => 'request',
      customErrorMessage: () => 'request',
      customSuccessObject: (req, res, value) => lineOf(req, res, (value as { responseTime: number }).responseTime),
      customErrorObject: (req, res, _err, value) => lineOf(req, res, (value as { responseTime: number }).responseTime),
    });
    httpLoggers.set(logger, httpLogger);
  }
  return httpLogger;
}

export function createRequestLogger(logger: Logger): Middleware {
  return function logRequests(ctx, next) {
    logWhenClosed(ctx, logger);
    return next();
  };
}

/** Writes the request's line once its response ends; `extra` (read then) is the edge forwarder's `{ forwarded }`. */
export function logWhenClosed(ctx: Context, logger: Logger, extra?: Readonly<Record<string, unknown>>): void {
  const req = ctx.req as LoggedRequest;
  req.started = { method: ctx.method, path: ctx.path, client: ctx.ip, extra };
  httpLoggerOf(logger)(req, ctx.res);
}
