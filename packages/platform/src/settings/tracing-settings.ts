/**
 * The OpenTelemetry variables both servers read (catalogue entries), as the OpenTelemetry conventions name them.
 * Tracing is on only with an OTLP endpoint and OTEL_SDK_DISABLED not true (tracingAsked); off, no part of the SDK
 * loads (docs/operations.md, "Tracing"). A value the SDK would silently replace is refused here; headers, timeout,
 * compression and certificates are the exporter's to read.
 */
import { defineSettings, type ReadSetting, type SettingValues } from './define-settings.ts';
import { EnvValueError, integer, oneOf, parseBoolean, parseHttpUrl, parseText, type EnvParser } from './env-parsers.ts';

/** OTLP over HTTP, protobuf or JSON: what the exporters of this repository speak (no gRPC). */
const parseOtlpProtocol = oneOf(['http/protobuf', 'http/json'] as const);

const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;
export type SamplerName = (typeof SAMPLERS)[number];

/** A ratio from 0 to 1 (OTEL_TRACES_SAMPLER_ARG of the ratio samplers). */
const parseRatio: EnvParser<number> = (raw) => {
  const value = /^(?:\d+\.?\d*|\.\d+)$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= 0 && value <= 1)) throw new EnvValueError('a ratio from 0 to 1 (e.g. 0.1)');
  return value;
};

/** `key=value` pairs, comma-separated (W3C Baggage octets, values percent-encoded). */
const parseResourceAttributes: EnvParser<string> = (raw) => {
  for (const pair of raw.split(',')) {
    if (!/^\s*[^=\s,;]+\s*=\s*[^,;]*$/.test(pair)) throw new EnvValueError('comma-separated key=value pairs (e.g. deployment.environment.name=prod)');
  }
  return raw;
};

const OTLP_PROTOCOL = {
  env: 'OTEL_EXPORTER_OTLP_PROTOCOL', parse: parseOtlpProtocol, default: 'http/protobuf' as const,
  doc: 'how spans are sent: `http/protobuf` or `http/json` (OTLP over HTTP; gRPC is not offered)',
};

const milliseconds = integer({ min: 0 });
const positive = integer({ min: 1 });

export const TRACING_SETTINGS = defineSettings({
  otlpEndpoint: {
    env: 'OTEL_EXPORTER_OTLP_ENDPOINT', parse: parseHttpUrl, optional: true, defaultDoc: 'unset: no tracing',
    doc: 'OpenTelemetry collector (OTLP/HTTP) base URL; spans go to `<url>/v1/traces`. Set, each server traces its requests (docs/operations.md, "Tracing"); unset, no tracing code is loaded',
  },
  otlpTracesEndpoint: {
    env: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', parse: parseHttpUrl, optional: true, defaultDoc: '`$OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces`',
    doc: 'the full URL spans are posted to (wins over OTEL_EXPORTER_OTLP_ENDPOINT); set, tracing is on',
  },
  otlpProtocol: OTLP_PROTOCOL,
  otlpTracesProtocol: {
    env: 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', parse: parseOtlpProtocol, default: (read: ReadSetting) => read(OTLP_PROTOCOL), defaultDoc: '`$OTEL_EXPORTER_OTLP_PROTOCOL`',
    doc: 'OTEL_EXPORTER_OTLP_PROTOCOL for spans alone',
  },
  otlpHeaders: {
    env: 'OTEL_EXPORTER_OTLP_HEADERS', parse: parseText, optional: true, secret: true, defaultDoc: 'none',
    doc: 'headers sent with each export, `name=value` comma-separated (e.g. a collector\'s API key; read by the exporter, never logged)',
  },
  serviceName: {
    env: 'OTEL_SERVICE_NAME', parse: parseText, optional: true, defaultDoc: '`heroes-resource-server`, `heroes-auth-server`',
    doc: 'the `service.name` of each server\'s spans (set it per server, or leave the defaults)',
  },
  resourceAttributes: {
    env: 'OTEL_RESOURCE_ATTRIBUTES', parse: parseResourceAttributes, optional: true, defaultDoc: 'none',
    doc: 'more resource attributes of every span, `key=value` comma-separated (e.g. `deployment.environment.name=prod,service.namespace=heroes`)',
  },
  sampler: {
    env: 'OTEL_TRACES_SAMPLER', parse: oneOf(SAMPLERS), default: 'parentbased_always_on' as SamplerName,
    doc: `which traces are kept: ${SAMPLERS.join(', ')} (parentbased_*: a request that comes with a \`traceparent\` follows its caller's decision)`,
  },
  samplerArg: {
    env: 'OTEL_TRACES_SAMPLER_ARG', parse: parseRatio, default: 1,
    doc: 'the ratio of traces kept by traceidratio and parentbased_traceidratio, 0 to 1',
  },
  bspScheduleDelayMs: { env: 'OTEL_BSP_SCHEDULE_DELAY', parse: milliseconds, default: 5_000, doc: 'longest wait between two exports of finished spans, ms' },
  bspExportTimeoutMs: { env: 'OTEL_BSP_EXPORT_TIMEOUT', parse: milliseconds, default: 30_000, doc: 'time limit of one export, ms' },
  bspMaxQueueSize: { env: 'OTEL_BSP_MAX_QUEUE_SIZE', parse: positive, default: 2_048, doc: 'finished spans kept waiting for export per process; beyond, new ones are dropped (never a request slowed)' },
  bspMaxExportBatchSize: { env: 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', parse: positive, default: 512, doc: 'spans per export at most (not above OTEL_BSP_MAX_QUEUE_SIZE)' },
  sdkDisabled: { env: 'OTEL_SDK_DISABLED', parse: parseBoolean, default: false, doc: 'true: no tracing even with an endpoint set' },
});

export type TracingSettings = SettingValues<typeof TRACING_SETTINGS>;

/** Whether tracing starts: an endpoint is given and the SDK is not disabled. */
export function tracingAsked(settings: TracingSettings): boolean {
  return !settings.sdkDisabled && (settings.otlpEndpoint !== undefined || settings.otlpTracesEndpoint !== undefined);
}
