/**
 * The servers' own spans (introspection, the forward, the hash queue) and the request span's route, through the
 * OpenTelemetry API only: while tracing is off none of it creates anything (`inSpan` runs the work as it is,
 * `traceRoutes` adds no layer).
 * Usage: await inSpan('introspection', (span) => lookup(token, span)); if (isTracing()) app.use(traceRoutes())
 */
import { SpanStatusCode, trace, type Attributes, type ProxyTracerProvider, type Span } from '@opentelemetry/api';
import type { Middleware } from 'koa';

const tracer = trace.getTracer('heroes');
let tracing = false;

/** Called once by start-tracing.ts, when the SDK is in place. */
export function markTracing(): void {
  tracing = true;
}

/** Whether this process exports spans (an OTLP endpoint was given). */
export function isTracing(): boolean {
  return tracing;
}

const FLUSH_LIMIT_MS = 3_000;

/** Sends the spans still waiting in the batch (a stopping server, before it exits); nothing while tracing is off. */
export async function flushSpans(): Promise<void> {
  if (!tracing) return;
  const provider = (trace.getTracerProvider() as ProxyTracerProvider).getDelegate() as { forceFlush?: () => Promise<void> };
  // Bounded: a collector that does not answer must not hold the stop (a supervisor would kill us).
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, FLUSH_LIMIT_MS)));
  await Promise.race([provider.forceFlush?.().catch(() => {}), late]);
  clearTimeout(timer);
}

/** What `work` gets while tracing is off: attributes set on it go nowhere. */
const NO_SPAN = trace.wrapSpanContext({ traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 0 });

/**
 * Runs `work` in a child span of the current one, named `name`; a thrown
 * error marks the span failed (its class name only: messages may quote input).
 */
export function inSpan<T>(name: string, work: (span: Span) => Promise<T>, attributes?: Attributes): Promise<T> {
  if (!tracing) return work(NO_SPAN);
  return tracer.startActiveSpan(name, attributes ? { attributes } : {}, async (span) => {
    try {
      return await work(span);
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.name : 'error' });
      throw err;
    } finally {
      span.end();
    }
  });
}

/**
 * The request span's route (`http.route`, and the span's name `GET /heroes/:id`)
 * once the app has answered: the router's pattern (`ctx._matchedRoute`), else
 * `ctx.state.route` (set by nameRoute), never the path itself (ids and typos
 * would make a name per request).
 */
export function traceRoutes(): Middleware {
  return async function traceRoute(ctx, next) {
    try {
      await next();
    } finally {
      const route = (ctx as { _matchedRoute?: unknown })._matchedRoute ?? (ctx.state as { route?: unknown }).route;
      if (typeof route === 'string') nameSpan(ctx.method, route);
    }
  };
}

/**
 * The route of a request a layer answers itself, without the router (the
 * forward to the authorization server, an endpoint table): named at once,
 * as the answer may be sent before the app's chain returns.
 */
export function nameRoute(ctx: { method: string; state: Record<string, unknown> }, route: string): void {
  ctx.state.route = route;
  if (tracing) nameSpan(ctx.method, route);
}

function nameSpan(method: string, route: string): void {
  const span = trace.getActiveSpan();
  span?.setAttribute('http.route', route);
  span?.updateName(`${method} ${route}`);
}
