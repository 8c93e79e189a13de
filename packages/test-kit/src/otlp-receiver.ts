/**
 * An OTLP/HTTP trace receiver in the test's process, as a Collector: every POST to /v1/traces gets 200 and is kept;
 * OTLP/JSON bodies are decoded into flat spans, protobuf ones only counted and kept as bytes.
 * Usage: const receiver = await startOtlpReceiver(); env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
 *        await waitFor(() => receiver.spans.some((span) => span.name === 'introspection'))
 */
import http from 'node:http';
import { listenLocally } from './listen-locally.ts';

export type SpanAttributes = Record<string, string | number | boolean | unknown[] | undefined>;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP's SpanKind number: 1 internal, 2 server, 3 client. */
  kind: number;
  service: string;
  attributes: SpanAttributes;
  events: Array<{ name: string; attributes: SpanAttributes }>;
  /** The span as it came (every field, to search for what must never be there). */
  raw: unknown;
}

export interface OtlpReceiver {
  /** Base URL, as OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  /** Every span received so far (JSON exports). */
  readonly spans: ReceivedSpan[];
  /** Every export request received: path, content type, body (none kept with `keep: false`). */
  readonly requests: Array<{ path: string; contentType: string; body: Buffer }>;
  /** Export requests and their body bytes, counted even with `keep: false`. */
  readonly received: { requests: number; bytes: number };
  /** Every span of one trace. */
  trace(traceId: string): ReceivedSpan[];
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
}
interface OtlpAttribute {
  key: string;
  value?: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpAttribute[];
  events?: Array<{ name: string; attributes?: OtlpAttribute[] }>;
}
interface OtlpExport {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{ spans?: OtlpSpan[] }>;
  }>;
}

function valueOf(value: OtlpValue | undefined): string | number | boolean | unknown[] | undefined {
  if (!value) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  return undefined;
}

function attributesOf(list: OtlpAttribute[] | undefined): SpanAttributes {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, valueOf(value)]));
}

function spansOf(body: OtlpExport): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of body.resourceSpans ?? []) {
    const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
    for (const scope of resourceSpans.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) {
        spans.push({
          traceId: span.traceId,
          spanId: span.spanId,
          ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
          name: span.name,
          kind: span.kind,
          service,
          attributes: attributesOf(span.attributes),
          events: (span.events ?? []).map((event) => ({ name: event.name, attributes: attributesOf(event.attributes) })),
          raw: { resource: resourceSpans.resource, span },
        });
      }
    }
  }
  return spans;
}

/** `keep: false` (a bench's receiver): count what comes, keep nothing. */
export async function startOtlpReceiver({ keep = true }: { keep?: boolean } = {}): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const requests: OtlpReceiver['requests'] = [];
  const received = { requests: 0, bytes: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const contentType = req.headers['content-type'] ?? '';
      received.requests += 1;
      received.bytes += body.length;
      if (keep) requests.push({ path: req.url ?? '', contentType, body });
      if (keep && contentType.startsWith('application/json')) spans.push(...spansOf(JSON.parse(body.toString('utf8')) as OtlpExport));
      res.writeHead(200, { 'content-type': contentType.startsWith('application/json') ? 'application/json' : 'application/x-protobuf' });
      res.end(contentType.startsWith('application/json') ? '{}' : '');
    });
  });
  const listening = await listenLocally(server);
  return {
    url: listening.url,
    spans,
    requests,
    received,
    trace: (traceId) => spans.filter((span) => span.traceId === traceId),
    close: listening.close,
  };
}
