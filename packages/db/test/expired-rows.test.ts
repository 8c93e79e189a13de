/**
 * The purge of expired rows pauses after each full batch (the requests' turn, longer when the WAL written exceeds
 * its budget) and runs nothing while it waits, and takes each batch in expiry order (the table's expiry index), not
 * in the order rows lie in the table. Real PostgreSQL; the pause is the purge's own hook, so the test waits on it
 * instead of on a clock.
 */
import test from 'ava';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@heroes/test-kit';
import { createDb, type PrismaClient } from '../src/index.ts';
import { purgeExpired, purgePauseMs, type PurgeBatch } from '../src/repositories/expired-rows.ts';

let database: TestDatabase;
let db: PrismaClient;
let client: pg.Client;

test.before(async () => {
  database = await createTestDatabase();
  db = createDb(database.url, { maxConnections: 2 });
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});
test.after.always(async () => {
  await client?.end();
  await db?.$disconnect();
  await database?.drop();
});

/** Expired Idempotency-Key answers `key-0` … `key-<count - 1>`, written newest first: the table's order is the reverse of expiry. */
async function expiredKeys(scope: string, count: number): Promise<void> {
  await client.query(
    `INSERT INTO idempotency_keys (scope, key, fingerprint, status, response, expires_at)
     SELECT $1, 'key-' || i, 'f', 200, '{}', (now() AT TIME ZONE 'UTC') - interval '1 hour' - i * interval '1 second'
     FROM generate_series(0, $2::int - 1) i`,
    [scope, count],
  );
}

async function keysLeft(scope: string): Promise<string[]> {
  const { rows } = await client.query<{ key: string }>('SELECT key FROM idempotency_keys WHERE scope = $1 ORDER BY expires_at DESC', [scope]);
  return rows.map((row) => row.key);
}

test.serial('a purge of many batches pauses after each full batch and runs nothing until the pause ends', async (t) => {
  await expiredKeys('paced', 10);
  const seen: Array<{ ms: number; batch: PurgeBatch; left: number; leftAgain: number }> = [];
  const counts = await purgeExpired(db, new Date(), {
    batchRows: 3,
    pause: async (ms, batch) => {
      const left = (await keysLeft('paced')).length;
      // A round trip later the purge still waits: nothing was deleted meanwhile.
      const leftAgain = (await keysLeft('paced')).length;
      seen.push({ ms, batch, left, leftAgain });
    },
  });
  t.is(counts.idempotencyKeys, 10);
  // Batches of 3, 3, 3 and 1: a pause after each full one, none after the last.
  t.deepEqual(seen.map(({ left, leftAgain }) => [left, leftAgain]), [[7, 7], [4, 4], [1, 1]]);
  t.true(seen.every(({ batch }) => batch.ms > 0), 'each pause is told how long its batch took');
  t.true(seen.every(({ ms, batch }) => ms >= batch.ms), 'each pause lasts at least as long as its batch');
  t.deepEqual(await keysLeft('paced'), []);
});

test.serial('a batch that wrote more WAL than the budget allows is followed by a pause that brings it back to the budget', async (t) => {
  await expiredKeys('budget', 4);
  const seen: Array<{ ms: number; batch: PurgeBatch }> = [];
  // 1 kB a second: the WAL of any real batch is over budget.
  await purgeExpired(db, new Date(), { batchRows: 2, walBytesPerSecond: 1000, pause: async (ms, batch) => void seen.push({ ms, batch }) });
  t.is(seen.length, 2);
  for (const { ms, batch } of seen) {
    t.true(batch.walBytes > 0, 'deleting rows writes WAL, and the purge reads how much');
    t.true(Math.abs(ms + batch.ms - batch.walBytes) < 1e-6, 'batch and pause together last as long as its WAL takes at 1 kB a second');
  }
});

test('the pause is as long as the batch, or as long as the WAL written needs at the budget, whichever is longer', (t) => {
  t.is(purgePauseMs({ ms: 20, walBytes: 100_000 }, 10_000_000), 20);
  t.is(purgePauseMs({ ms: 20, walBytes: 4_000_000 }, 10_000_000), 380);
});

test.serial('each batch takes the rows that expired first, whatever their order in the table', async (t) => {
  await expiredKeys('ordered', 5);
  const batches: string[][] = [];
  await purgeExpired(db, new Date(), {
    batchRows: 2,
    pause: async () => {
      batches.push(await keysLeft('ordered'));
    },
  });
  // key-4 expired first (it was written last): each batch removes the two oldest left.
  t.deepEqual(batches, [['key-0', 'key-1', 'key-2'], ['key-0']]);
});

test.serial('without a pause hook the purge waits on a timer between batches and still removes every expired row', async (t) => {
  await expiredKeys('timed', 5);
  const counts = await purgeExpired(db, new Date(), { batchRows: 2 });
  t.is(counts.idempotencyKeys, 5);
  t.deepEqual(await keysLeft('timed'), []);
});
