/**
 * BoundedQueue's spans (queue/bounded-queue.ts): `<name>` for every task,
 * `<name> queue wait` only for a task that waited for a slot.
 */
import test from 'ava';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { markTracing } from '../../src/tracing/spans.ts';
import { BoundedQueue } from '../../src/index.ts';

const exporter = new InMemorySpanExporter();
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }));
markTracing();

test('a task that starts at once has no queue-wait span; one that waited has one, with its priority', async (t) => {
  const queue = new BoundedQueue({ concurrency: 1, maxQueued: 2, name: 'hash' });
  let open = (): void => {};
  const first = queue.run(() => new Promise<string>((resolve) => (open = () => resolve('first'))));
  const second = queue.run(async () => 'second');
  open();
  t.deepEqual(await Promise.all([first, second]), ['first', 'second']);
  const spans = exporter.getFinishedSpans().map((span) => `${span.name} (${String(span.attributes['heroes.queue.priority'])})`);
  t.deepEqual(spans.toSorted(), ['hash (high)', 'hash (high)', 'hash queue wait (high)']);
});
