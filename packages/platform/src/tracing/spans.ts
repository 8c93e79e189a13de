/**
 * The servers' own spans (introspection, the forward, the hash queue) and the request span's route, through the
 * OpenTelemetry API only: while tracing is off none of it creates anything (`inSpan` runs the work as it is; the
 * request span's layer is not wired: request-span.ts).
 * Usage: await inSpan('forward', (span) => call(span)); startChildSpan('lookup').end(); if (isTracing()) app.use(traceRequests())
 */
import { context, SpanStatusCode, trace, type Attributes, type ProxyTracerProvider, type Span } from '@opentelemetry/api';

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
 * A child span of the current one, named `name`, not made current: for a step that starts no span of its own (a
 * cache hit), ended by the caller; or handed to withinSpan() for one that does. Off: a span that records nothing.
 */
export function startChildSpan(name: string, attributes?: Attributes): Span {
  return tracing ? tracer.startSpan(name, attributes ? { attributes } : undefined) : NO_SPAN;
}

/**
 * Runs `work` with `span` as the current span (the spans it starts are its children, its calls carry it on) and ends
 * `span` when `work` settles; a thrown error marks the span failed (its class name only: messages may quote input).
 */
export function withinSpan<T>(span: Span, work: (span: Span) => Promise<T>): Promise<T> {
  if (!tracing) return work(span);
  return context.with(trace.setSpan(context.active(), span), async () => {
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

/** Runs `work` in a new child span of the current one, named `name` (withinSpan). */
export function inSpan<T>(name: string, work: (span: Span) => Promise<T>, attributes?: Attributes): Promise<T> {
  if (!tracing) return work(NO_SPAN);
  return withinSpan(startChildSpan(name, attributes), work);
}

/**
 * The route of a request a layer answers itself, without the router (the forward to the authorization server, an
 * endpoint table): the request span's name and `http.route` when it ends (request-span.ts).
 */
export function nameRoute(ctx: { state: Record<string, unknown> }, route: string): void {
  ctx.state.route = route;
}
