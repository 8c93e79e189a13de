/**
 * While tracing, the logger's own mixin puts the active span's ids on a line (docs/operations.md, "Tracing"): inside
 * a span `trace_id`, `span_id` and `trace_flags` beside `reqId`; outside any span none. A real SDK provider and the
 * AsyncLocalStorage context manager, as start-tracing.ts sets them.
 */
import test from 'ava';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { TracerProvider } from '@opentelemetry/sdk-trace';
import { createLogger } from '../../src/index.ts';
import { requestContext } from '../../src/logging/request-context.ts';
import { markTracing } from '../../src/tracing/spans.ts';

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(new TracerProvider());
markTracing();

function logged(write: (logger: ReturnType<typeof createLogger>) => void): Record<string, unknown>[] {
  const lines: string[] = [];
  const logger = createLogger('test', { write: (line: string) => void lines.push(line) });
  write(logger);
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

test('a line written in a span carries its trace_id, span_id and trace_flags beside the request id', async (t) => {
  const span = trace.getTracer('test').startSpan('request');
  const lines = await context.with(trace.setSpan(context.active(), span), () => requestContext.run({ reqId: 'r-1' }, async () => {
    await Promise.resolve();
    return logged((logger) => {
      logger.info('inside');
      logger.info({ reqId: 'own' }, 'request');
    });
  }));
  span.end();
  const { traceId, spanId } = span.spanContext();
  t.like(lines[0], { trace_id: traceId, span_id: spanId, trace_flags: '01', reqId: 'r-1', msg: 'inside' });
  t.like(lines[1], { trace_id: traceId, span_id: spanId, reqId: 'own', msg: 'request' });
});

test('a line written outside any span carries no trace ids', (t) => {
  const [line] = logged((logger) => logger.info('outside'));
  t.false('trace_id' in line!);
  t.false('span_id' in line!);
  t.false('reqId' in line!);
});
