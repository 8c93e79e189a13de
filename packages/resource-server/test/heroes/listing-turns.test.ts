/**
 * Listings are paced per turn of the event loop (data/turn-budget.ts): what all readers of shared listings get
 * between two check phases stays near one turn's budget, those that wait go on in the order they asked, and every
 * listing still gets the whole list. Counted in turns, never in time.
 */
import type { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import test from 'ava';
import type { HeroRow } from '@heroes/db/pg';
import { SharedListBuild } from '../../src/data/shared-list-build.ts';
import { TurnBudget } from '../../src/data/turn-budget.ts';
import { BATCH_SIZE } from '../../src/routes/heroes/send-hero-list.ts';

const HEROES: HeroRow[] = Array.from({ length: BATCH_SIZE * 20 + 3 }, (_, i) => ({ id: i + 1, name: `Hero ${i + 1} ${'x'.repeat(i % 40)}` }));
const READERS = 12;

/** Reads every stream to its end, counting the bytes all of them got in each window between two check phases. */
async function readInTurns(streams: Readable[]): Promise<{ bodies: Buffer[]; perTurn: number[]; largestChunk: number }> {
  const perTurn = [0];
  let largestChunk = 0;
  let reading = true;
  const tick = (): void => {
    perTurn.push(0);
    if (reading) setImmediate(tick);
  };
  setImmediate(tick);
  const bodies = await Promise.all(streams.map((stream) => new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      perTurn[perTurn.length - 1]! += chunk.length;
      largestChunk = Math.max(largestChunk, chunk.length);
    });
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  })));
  reading = false;
  return { bodies, perTurn, largestChunk };
}

async function shareList(turns: TurnBudget): Promise<{ bodies: string[]; perTurn: number[]; largestChunk: number }> {
  const build = new SharedListBuild(0, performance.now(), turns);
  void build.run(async (after) => HEROES.filter((row) => row.id > after).slice(0, BATCH_SIZE), BATCH_SIZE);
  await build.first;
  const gzip = (i: number) => i % 2 === 0;
  const read = await readInTurns(Array.from({ length: READERS }, (_, i) => build.reader(gzip(i))));
  return { ...read, bodies: read.bodies.map((body, i) => (gzip(i) ? gunzipSync(body) : body).toString('utf8')) };
}

test('all listings together get about one budget per turn, and each the whole list', async (t) => {
  const budget = 64 * 1024;
  const { bodies, perTurn, largestChunk } = await shareList(new TurnBudget(budget));
  const expected = JSON.stringify(HEROES);
  for (const body of bodies) t.is(body, expected);
  // A window between two check phases holds one refill: what was left before it, the refill, and the chunk that
  // crosses each of them.
  const bound = 2 * (budget + largestChunk);
  t.true(Math.max(...perTurn) <= bound, `at most ${bound} bytes a turn, got ${Math.max(...perTurn)}`);
  // The pacing is what keeps it so: unpaced (one budget for everything), the same readers take far more a turn.
  const unpaced = await shareList(new TurnBudget(Number.MAX_SAFE_INTEGER));
  t.true(Math.max(...unpaced.perTurn) > bound, `unpaced: ${Math.max(...unpaced.perTurn)} bytes in one turn`);
});

test('a spent budget makes later chunks wait for a later turn, in the order they asked', async (t) => {
  const turns = new TurnBudget(100);
  const order: string[] = [];
  t.true(turns.take(100, () => order.push('never')));
  t.false(turns.take(10, () => order.push('first')));
  t.false(turns.take(10, () => order.push('second')));
  t.deepEqual(order, [], 'nothing resumes in the turn that spent the budget');
  t.is(turns.waiting, 2);
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(order, ['first', 'second']);
  t.is(turns.waiting, 0);
});

test('the waiting that a turn cannot serve go first in the next', async (t) => {
  const turns = new TurnBudget(100);
  const order: string[] = [];
  const asker = (name: string) => {
    const resume = (): void => {
      if (turns.take(60, resume)) order.push(name);
    };
    return resume;
  };
  turns.take(100, () => {});
  for (const name of ['a', 'b', 'c', 'd']) turns.take(60, asker(name));
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(order, ['a', 'b'], 'one turn: 60 + 60 crosses the budget of 100');
  turns.take(60, asker('late'));
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(order, ['a', 'b', 'c', 'd']);
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(order, ['a', 'b', 'c', 'd', 'late']);
});
