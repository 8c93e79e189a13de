/**
 * The last word on what leaves the process in a span, whatever made it: as each span ends (before any exporter sees
 * it), query-string values become REDACTED (OAuth endpoints carry codes and tokens there, searches what users typed);
 * quoted SQL literals become `?` (values travel as `$n`, never recorded); captured credential headers (Authorization,
 * Cookie, Set-Cookie, DPoP, Proxy-Authorization) are dropped. A span with nothing to scrub is left as it is.
 */
import type { Attributes } from '@opentelemetry/api';
import type { Span, SpanProcessor } from '@opentelemetry/sdk-trace';

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

/**
 * Scrubs `attributes` in place; returns them. Only keys that can hold a secret are touched (most spans have none: the
 * request span's `url.query` is redacted when it is set, request-span.ts).
 */
export function scrubAttributes(attributes: Attributes): Attributes {
  for (const key in attributes) {
    const value = attributes[key];
    if (CREDENTIAL_HEADER.test(key)) delete attributes[key];
    else if (typeof value !== 'string') continue;
    else if (QUERY_KEYS.has(key)) attributes[key] = redactQuery(value);
    else if (URL_KEYS.has(key)) attributes[key] = redactUrl(value);
    else if (SQL_KEYS.has(key)) attributes[key] = withoutLiterals(value);
  }
  return attributes;
}

/**
 * The first span processor of the provider: scrubs each span in `onEnding`, when its attributes are final and before
 * `onEnd` hands it to the batch (the OpenTelemetry SDK's SpanProcessor contract).
 */
export class ScrubSpans implements SpanProcessor {
  onStart(): void {}

  onEnding(span: Span): void {
    scrubAttributes(span.attributes);
    for (const event of span.events) if (event.attributes) scrubAttributes(event.attributes);
  }

  onEnd(): void {}

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
