/**
 * The edge's replay check (dpop-replay.ts) on a real database: claims that
 * arrive while a statement is in flight go together in the next one, each
 * answered with its own result; a failed statement fails its own claims
 * only. The statements are counted by a Queryable that passes them on.
 */
import test from 'ava';
import pg from 'pg';
import { createTestPool, type TestPool } from '@heroes/test-kit';
import { createReplayCheck } from '../../src/auth/dpop-replay.ts';

let testPool: TestPool;
let pool: pg.Pool;

test.before(async () => {
  testPool = await createTestPool();
  pool = testPool.pool;
});
test.after.always(() => testPool?.close());

const later = () => Date.now() + 60_000;
const acceptableFrom = () => Date.now() - 60_000;

/**
 * The pool, with each statement's batch size recorded; `hold()` keeps the
 * next statement from reaching the database until `release()`, and
 * `failNext` makes the next one fail.
 */
function counted() {
  const batches: number[] = [];
  let gate: Promise<void> | undefined;
  let open = () => {};
  const db = {
    failNext: false,
    hold() {
      gate = new Promise((resolve) => (open = resolve));
    },
    release: () => open(),
    async query(config: { name?: string; text: string; values: unknown[] }) {
      batches.push((config.values[0] as unknown[]).length);
      const waitFor = gate;
      gate = undefined;
      await waitFor;
      if (db.failNext) {
        db.failNext = false;
        throw new Error('the database failed');
      }
      return pool.query(config);
    },
  };
  return { db, batches };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

test('claims made over several turns while a statement is in flight share the next one; each gets its own answer', async (t) => {
  const { db, batches } = counted();
  const replay = createReplayCheck(db);
  db.hold();
  const first = replay.firstUse('key', 'a', later(), acceptableFrom());
  const rest: Array<Promise<boolean>> = [];
  for (const jti of ['b', 'c', 'a', 'd']) {
    await nextTurn();
    rest.push(replay.firstUse('key', jti, later(), acceptableFrom()));
  }
  t.deepEqual(batches, [1], 'nothing more is sent while the first statement is in flight');
  db.release();
  t.deepEqual(await Promise.all([first, ...rest]), [true, true, true, false, true]);
  t.deepEqual(batches, [1, 4]);
  t.false(await replay.firstUse('key', 'c', later(), acceptableFrom()), 'a replay after its batch is refused');
  t.true(await replay.firstUse('another key', 'c', later(), acceptableFrom()), 'a jti is per key');
});

test('a failed statement fails its own claims only; the next batch goes on', async (t) => {
  const { db, batches } = counted();
  const replay = createReplayCheck(db);
  db.hold();
  db.failNext = true;
  const failing = replay.firstUse('key', 'x', later(), acceptableFrom());
  await nextTurn();
  const next = replay.firstUse('key', 'y', later(), acceptableFrom());
  db.release();
  await t.throwsAsync(failing, { message: 'the database failed' });
  t.true(await next);
  t.true(await replay.firstUse('key', 'x', later(), acceptableFrom()), 'the failed claim was never recorded');
  t.deepEqual(batches, [1, 1, 1]);
});
