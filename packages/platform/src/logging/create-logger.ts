/**
 * The pino logger of a process: JSON lines to stdout at `LOG_LEVEL`; `err` through serializeError() (payloads,
 * configuration and credential headers never written); a line written during a request carries its `reqId`, and
 * while tracing the span's `trace_id`, `span_id`, `trace_flags` (docs/operations.md, "Tracing"). stdout is
 * asynchronous, a few milliseconds' lines in one write (batched-stdout.ts), flushed synchronously at exit.
 * Usage: createLogger('resource-server').info({ port }, 'listening')
 */
import { trace } from '@opentelemetry/api';
import { pino, type DestinationStream, type Logger } from 'pino';
import { requestContext } from './request-context.ts';
import { batchedStdout } from './batched-stdout.ts';
import { serializeError } from '@heroes/http-kit';
import { startupLogLevel } from '../settings/log-level-setting.ts';
import { isTracing } from '../tracing/spans.ts';

/** What requestFields() returns when it has nothing to add: never merged into (see mergeRequestFields). */
const NOTHING: Readonly<Record<string, never>> = Object.freeze({});

type LineFields = { reqId?: string; trace_id?: string; span_id?: string; trace_flags?: string };

/**
 * The request's fields for a line, as a new object: pino merges the line's
 * own fields into what mixin() returns, so handing it the request context
 * itself would carry one line's fields onto every later line of the request.
 * `reqId` unless the line carries its own (the request line); the active
 * span's ids while tracing (the field names of OpenTelemetry's pino
 * instrumentation). A line with nothing to add gets NOTHING.
 */
function requestFields(line: object): LineFields {
  const fields = isTracing() ? spanFields() : undefined;
  if ((line as { reqId?: unknown }).reqId !== undefined) return fields ?? NOTHING;
  const store = requestContext.getStore();
  if (store === undefined) return fields ?? NOTHING;
  if (fields === undefined) return { reqId: store.reqId };
  fields.reqId = store.reqId;
  return fields;
}

function spanFields(): LineFields | undefined {
  const span = trace.getActiveSpan();
  if (span === undefined) return undefined;
  const { traceId, spanId, traceFlags } = span.spanContext();
  return { trace_id: traceId, span_id: spanId, trace_flags: `0${traceFlags.toString(16)}` };
}

/** pino's default merge (the line's fields win over the mixin's), without copying the line when there is nothing to add. */
function mergeRequestFields(line: object, fields: object): object {
  return fields === NOTHING ? line : Object.assign(fields, line);
}

/** `destination` defaults to stdout (tests pass a stream to read the lines). */
export function createLogger(name: string, destination?: DestinationStream): Logger {
  // An unknown level must not crash here: the settings check reports it as one line.
  const level = startupLogLevel(process.env);
  const options = {
    name,
    level,
    serializers: { err: serializeError },
    mixin: requestFields,
    mixinMergeStrategy: mergeRequestFields,
  };
  return pino(options, destination ?? batchedStdout());
}
