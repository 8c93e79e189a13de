/**
 * The last word on what leaves the process in a span, whatever made it: query-string values become REDACTED (OAuth
 * endpoints carry codes and tokens there, searches what users typed); quoted SQL literals become `?` (values travel
 * as `$n`, never recorded); captured credential headers (Authorization, Cookie, Set-Cookie, DPoP,
 * Proxy-Authorization) are dropped.
 */
import type { Attributes } from '@opentelemetry/api';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';

const REDACTED = 'REDACTED';
const QUERY_KEYS = new Set(['url.query']);
const URL_KEYS = new Set(['url.full', 'url.original', 'http.target', 'http.url']);
const SQL_KEYS = new Set(['db.query.text', 'db.statement']);
const CREDENTIAL_HEADER = /^http\.(?:request|response)\.header\.(?:authorization|proxy-authorization|cookie|set-cookie|dpop)$/i;

/** `a=1&b=2` → `a=REDACTED&b=REDACTED` (a key without `=` stays as it is). */
export function redactQuery(query: string): string {
  return query.split('&').map((pair) => {
    const at = pair.indexOf('=');
    return at === -1 ? pair : `${pair.slice(0, at)}=${REDACTED}`;
  }).join('&');
}

function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at === -1) return url;
  const hash = url.indexOf('#', at);
  return `${url.slice(0, at + 1)}${redactQuery(url.slice(at + 1, hash === -1 ? undefined : hash))}`;
}

/** Quoted literals (`'…'`, `E'…'`, with doubled quotes inside) → `?`. */
export function withoutLiterals(sql: string): string {
  return sql.replace(/(?:\b[Ee])?'(?:[^']|'')*'/g, '?');
}

export function scrubAttributes(attributes: Attributes): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (CREDENTIAL_HEADER.test(key)) continue;
    if (typeof value !== 'string') out[key] = value;
    else if (QUERY_KEYS.has(key)) out[key] = redactQuery(value);
    else if (URL_KEYS.has(key)) out[key] = redactUrl(value);
    else if (SQL_KEYS.has(key)) out[key] = withoutLiterals(value);
    else out[key] = value;
  }
  return out;
}

/** The span as the exporter reads it, its attributes and events' attributes scrubbed. */
function scrubbed(span: ReadableSpan): ReadableSpan {
  return Object.create(span, {
    attributes: { value: scrubAttributes(span.attributes) },
    events: { value: span.events.map((event) => (event.attributes ? { ...event, attributes: scrubAttributes(event.attributes) } : event)) },
  }) as ReadableSpan;
}

export class ScrubbedSpanExporter implements SpanExporter {
  readonly #exporter: SpanExporter;

  constructor(exporter: SpanExporter) {
    this.#exporter = exporter;
  }

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.#exporter.export(spans.map(scrubbed), resultCallback);
  }

  shutdown(): Promise<void> {
    return this.#exporter.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.#exporter.forceFlush?.() ?? Promise.resolve();
  }
}
