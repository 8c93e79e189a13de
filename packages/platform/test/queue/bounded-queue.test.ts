import test from 'ava';
import { QueueFullError, toProblem } from '@heroes/http-kit';
import { BoundedQueue, libuvPoolSize } from '../../src/index.ts';

/** A task that finishes when told to, recording its start. */
function gate(log: string[], name: string) {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { task: async () => { log.push(`start ${name}`); await opened; return name; }, open };
}

test('concurrency tasks run, maxQueued wait, the next is refused at once with a 503 and Retry-After', async (t) => {
  const queue = new BoundedQueue({ concurrency: 2, maxQueued: 1, retryAfterSeconds: 3 });
  const log: string[] = [];
  const gates = ['a', 'b', 'c'].map((name) => gate(log, name));
  const runs = gates.map((g) => queue.run(g.task));
  await Promise.resolve();
  t.deepEqual(log, ['start a', 'start b']);
  t.is(queue.running, 2);
  t.is(queue.queued, 1);
  const refused = await t.throwsAsync(queue.run(async () => 'never'), { instanceOf: QueueFullError });
  const problem = toProblem(refused);
  t.is(problem.status, 503);
  t.is(problem.headers['Retry-After'], '3');
  t.deepEqual(problem.body, { error: 'server busy, retry later' });
  // Still full: the refusal took no slot. The waiting one starts when a slot frees.
  gates[1]!.open();
  t.is(await runs[1], 'b');
  t.deepEqual(log, ['start a', 'start b', 'start c']);
  t.is(queue.queued, 0);
  gates[0]!.open();
  gates[2]!.open();
  t.deepEqual(await Promise.all(runs), ['a', 'b', 'c']);
  t.is(queue.running, 0);
});

test('a failed task frees its slot; waiting tasks start in arrival order', async (t) => {
  const queue = new BoundedQueue({ concurrency: 1, maxQueued: 3 });
  const order: number[] = [];
  const failing = queue.run(async () => { throw new Error('boom'); });
  const rest = [1, 2, 3].map((n) => queue.run(async () => { order.push(n); }));
  await t.throwsAsync(failing, { message: 'boom' });
  await Promise.all(rest);
  t.deepEqual(order, [1, 2, 3]);
  t.is(queue.running, 0);
  t.is(queue.queued, 0);
});

test('maxQueued 0: only the running tasks', async (t) => {
  const queue = new BoundedQueue({ concurrency: 1, maxQueued: 0 });
  const log: string[] = [];
  const g = gate(log, 'only');
  const run = queue.run(g.task);
  await t.throwsAsync(queue.run(async () => 'x'), { instanceOf: QueueFullError });
  g.open();
  t.is(await run, 'only');
  t.is(await queue.run(async () => 'after'), 'after');
});

test('libuvPoolSize reads UV_THREADPOOL_SIZE, else 4', (t) => {
  t.is(libuvPoolSize({ UV_THREADPOOL_SIZE: '8' }), 8);
  t.is(libuvPoolSize({ UV_THREADPOOL_SIZE: 'x' }), 4);
  t.is(libuvPoolSize({}), 4);
});

test('low-priority tasks have their own budgets: they never take the last slot nor the high queue, and a freed slot goes to a high task first', async (t) => {
  const queue = new BoundedQueue({ concurrency: 2, maxQueued: 2 });
  const log: string[] = [];
  const lows = ['l1', 'l2', 'l3'].map((name) => gate(log, name));
  const lowRuns = lows.map((g) => queue.run(g.task, { priority: 'low' }));
  await Promise.resolve();
  t.deepEqual(log, ['start l1'], 'low tasks run at most concurrency − 1 at once');
  t.is(queue.queued, 1, 'one low task waits (half of maxQueued)');
  await t.throwsAsync(queue.run(async () => 'never', { priority: 'low' }), { instanceOf: QueueFullError }, 'the low queue is full');
  // A flood of low tasks refuses none of the high ones: the free slot and the high queue are theirs.
  const highs = ['h1', 'h2', 'h3'].map((name) => gate(log, name));
  const highRuns = highs.map((g) => queue.run(g.task));
  await Promise.resolve();
  t.deepEqual(log, ['start l1', 'start h1']);
  t.is(queue.queued, 3);
  lows[0]!.open();
  t.is(await lowRuns[0], 'l1');
  t.deepEqual(log, ['start l1', 'start h1', 'start h2'], 'the freed slot went to the waiting high task, not the older low one');
  highs[1]!.open();
  await highRuns[1];
  t.deepEqual(log.slice(-1), ['start h3']);
  for (const g of [...lows, ...highs]) g.open();
  t.deepEqual(await Promise.all([...lowRuns.slice(0, 2), ...highRuns]), ['l1', 'l2', 'h1', 'h2', 'h3']);
  t.deepEqual(await lowRuns[2]!.catch((err: unknown) => err instanceof QueueFullError), true, 'l3 was refused: the low queue held one');
  t.is(queue.running, 0);
});
