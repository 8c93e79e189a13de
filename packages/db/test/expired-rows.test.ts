/**
 * The purge of expired rows pauses after each full batch (the requests' turn) and runs nothing while it waits, and
 * takes each batch in expiry order (the table's expiry index), not in the order rows lie in the table. Real
 * PostgreSQL; the pause is the purge's own hook, so the test waits on it instead of on a clock.
 */
import test from 'ava';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@heroes/test-kit';
import { createDb, type PrismaClient } from '../src/index.ts';
import { purgeExpired } from '../src/repositories/expired-rows.ts';

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
  const seen: Array<{ batchMs: number; left: number; leftAgain: number }> = [];
  const counts = await purgeExpired(db, new Date(), {
    batchRows: 3,
    pause: async (batchMs) => {
      const left = (await keysLeft('paced')).length;
      // A round trip later the purge still waits: nothing was deleted meanwhile.
      const leftAgain = (await keysLeft('paced')).length;
      seen.push({ batchMs, left, leftAgain });
    },
  });
  t.is(counts.idempotencyKeys, 10);
  // Batches of 3, 3, 3 and 1: a pause after each full one, none after the last.
  t.deepEqual(seen.map(({ left, leftAgain }) => [left, leftAgain]), [[7, 7], [4, 4], [1, 1]]);
  t.true(seen.every(({ batchMs }) => batchMs > 0), 'each pause is told how long its batch took');
  t.deepEqual(await keysLeft('paced'), []);
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
