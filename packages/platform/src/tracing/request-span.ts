/**
 * A request's span (kind server), opened by each server's first Koa layer while tracing: it continues an incoming W3C
 * `traceparent`, runs the rest of the chain in its context (child spans; trace_id/span_id on log lines, the request
 * line at close too: log-requests.ts writes it in the request's context) and ends when the response closes. Ours, not
 * @opentelemetry/instrumentation-http's incoming side, which cost more CPU per GET /heroes (docs/performance.md).
 */
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { Context, Middleware } from 'koa';
import { redactQuery } from './scrub-spans.ts';

/** Requests that make no span: probes and scrapes, many a minute, never slow for a reason a trace would show. */
const UNTRACED_PATHS = new Set(['/health/live', '/health/ready', '/metrics']);

/** The first layer of a server's app; wired only while tracing (off, the app has no such layer). */
export function traceRequests(): Middleware {
  const tracer = trace.getTracer('heroes');
  return function traceRequest(ctx, next) {
    const path = ctx.path;
    if (UNTRACED_PATHS.has(path)) return next();
    const parent = propagation.extract(ROOT_CONTEXT, ctx.req.headers);
    const query = ctx.querystring;
    const span = tracer.startSpan(ctx.method, {
      kind: SpanKind.SERVER,
      attributes: query === ''
        ? { 'http.request.method': ctx.method, 'url.path': path }
        : { 'http.request.method': ctx.method, 'url.path': path, 'url.query': redactQuery(query) },
    }, parent);
    ctx.res.once('close', () => endRequestSpan(ctx, span));
    return context.with(trace.setSpan(parent, span), next);
  };
}

function endRequestSpan(ctx: Context, span: Span): void {
  if (span.isRecording()) {
    // The router's pattern, else the route a layer named (nameRoute); never the path itself (a name per id or typo).
    const route = (ctx as { _matchedRoute?: unknown })._matchedRoute ?? (ctx.state as { route?: unknown }).route;
    if (typeof route === 'string') {
      span.setAttribute('http.route', route);
      span.updateName(`${ctx.method} ${route}`);
    }
    span.setAttribute('client.address', ctx.ip);
    const res = ctx.res;
    if (res.headersSent) {
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    }
    if (!res.writableFinished) span.setStatus({ code: SpanStatusCode.ERROR, message: 'aborted' });
  }
  span.end();
}
