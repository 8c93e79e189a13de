/**
 * password_hash_queue_depth reads the queue its server was built with: two
 * servers in one process (as in tests and `npm run cluster`'s workers) each
 * report their own queue, never whichever registered last.
 */
import test from 'ava';
import { BoundedQueue } from '@heroes/platform';
import type { Database } from '../../src/data/create-pool.ts';
import { createServerMetrics } from '../../src/metrics/server-metrics.ts';

// The gauges read the pool only at a scrape; its figures are not what this test is about.
const idlePool = { stats: () => ({ total: 0, idle: 0, waiting: 0 }) } as unknown as Database;

async function depth(metrics: ReturnType<typeof createServerMetrics>): Promise<number> {
  const text = await metrics.registry.getSingleMetricAsString('password_hash_queue_depth');
  return Number(/ (\d+)$/m.exec(text)![1]);
}

test('each server reports the depth of its own hash queue', async (t) => {
  const busy = new BoundedQueue({ concurrency: 1, maxQueued: 10 });
  const idle = new BoundedQueue({ concurrency: 1, maxQueued: 10 });
  const busyMetrics = createServerMetrics({ allow: [], pool: idlePool, hashQueue: busy });
  const idleMetrics = createServerMetrics({ allow: [], pool: idlePool, hashQueue: idle });

  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => { release = resolve; });
  const running = [busy.run(() => gate), busy.run(() => gate), busy.run(() => gate)];

  t.is(await depth(busyMetrics), 2, 'one runs, two wait');
  t.is(await depth(idleMetrics), 0);
  release();
  await Promise.all(running);
  t.is(await depth(busyMetrics), 0);
});
