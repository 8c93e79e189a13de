/**
 * createDb(): an idle pooled connection that the server terminates (a
 * restart, an administrator, a dropped database) is dropped from the pool
 * and the next query connects again; the process does not crash. pg emits
 * such errors on the pool, and an 'error' event nobody listens to is an
 * uncaught exception; Prisma listens only once it has run a query itself,
 * and the servers' hot paths go through sqlPool() alone.
 */
import test from 'ava';
import pg from 'pg';
import { createDb, sqlPool } from '../src/index.ts';
import { adminUrl, createTestDatabase } from '../src/testing.ts';

test('an idle connection terminated by the server is dropped, and the next query reconnects', async (t) => {
  const database = await createTestDatabase();
  const db = createDb(database.url);
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    const pool = sqlPool(db);
    await pool.query('SELECT 1');
    t.is(pool.idleCount, 1, 'one idle connection, and no Prisma query ever ran');
    const { rows } = await admin.query<{ terminated: boolean }>(
      'SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [database.name],
    );
    t.deepEqual(rows.map((row) => row.terminated), [true]);
    // pg removes the broken client from the pool when the error arrives; wait for that, not for a fixed time.
    for (let tries = 0; pool.totalCount > 0; tries += 1) {
      if (tries > 600) throw new Error('the terminated connection was never removed from the pool');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const again = await pool.query<{ one: number }>('SELECT 1 AS one');
    t.is(again.rows[0]?.one, 1);
  } finally {
    await admin.end();
    await db.$disconnect();
    await database.drop();
  }
});
