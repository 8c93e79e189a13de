/**
 * The OpenTelemetry SDK of one server, loaded only when tracing is asked for: the module hook for the instrumented
 * modules only; AsyncLocalStorage context and W3C Trace Context (an incoming `traceparent` continued); a provider with
 * OTEL_SERVICE_NAME/RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER, ScrubSpans and a batch OTLP/HTTP exporter; outgoing
 * node:http and undici, pg (never values); the request's own span is request-span.ts's, the ids on log lines the
 * logger's own (create-logger.ts).
 */
import { register } from 'node:module';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { detectResources, envDetector, hostDetector, processDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
} from '@opentelemetry/sdk-trace';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import type { SamplerName, TracingSettings } from '../settings/tracing-settings.ts';
import { ScrubSpans } from './scrub-spans.ts';
import { markTracing } from './spans.ts';

export async function startTracing(settings: TracingSettings, defaultServiceName: string): Promise<void> {
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);

  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));

  // The exporters read the endpoint, headers, timeout and compression from the OTEL_EXPORTER_OTLP_* variables themselves.
  const exporter = settings.otlpTracesProtocol === 'http/json' ? new JsonTraceExporter() : new ProtobufTraceExporter();
  const provider = new TracerProvider({
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (envDetector) win over the server's own name.
    resource: resourceFromAttributes({ 'service.name': defaultServiceName }).merge(detectResources({ detectors: [envDetector, hostDetector, processDetector] })),
    sampler: samplerOf(settings.sampler, settings.samplerArg),
    // ScrubSpans first: every span is scrubbed as it ends, before the batch holds it (scrub-spans.ts).
    spanProcessors: [new ScrubSpans(), new BatchSpanProcessor({
      exporter,
      scheduledDelayMillis: settings.bspScheduleDelayMs,
      exportTimeoutMillis: settings.bspExportTimeoutMs,
      maxQueueSize: settings.bspMaxQueueSize,
      maxExportBatchSize: Math.min(settings.bspMaxExportBatchSize, settings.bspMaxQueueSize),
    })],
  });
  trace.setGlobalTracerProvider(provider);

  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      // Outgoing calls only (the forward, introspection); each server's first Koa layer makes the request's span
      // (request-span.ts). Query values never leave in full: ScrubSpans redacts them all.
      new HttpInstrumentation({ disableIncomingRequestInstrumentation: true }),
      new UndiciInstrumentation(),
      // Statements of a request only: the revocation feed's heartbeat and the purge timer make none.
      new PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true }),
    ],
  });
  await waitForAllMessagesAcknowledged();
  markTracing();
}

/** OTEL_TRACES_SAMPLER's values, as the OpenTelemetry environment conventions define them. */
function samplerOf(name: SamplerName, ratio: number): Sampler {
  const root: Record<SamplerName, () => Sampler> = {
    always_on: () => new AlwaysOnSampler(),
    always_off: () => new AlwaysOffSampler(),
    traceidratio: () => new TraceIdRatioBasedSampler(ratio),
    parentbased_always_on: () => new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    parentbased_always_off: () => new ParentBasedSampler({ root: new AlwaysOffSampler() }),
    parentbased_traceidratio: () => new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) }),
  };
  return root[name]();
}
