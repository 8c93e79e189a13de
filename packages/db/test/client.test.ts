/**
 * createDb(): the pg pool behind the Prisma client (sqlPool) is closed by
 * $disconnect() whatever ran on it; a pool left open keeps connections that
 * a dropped database then terminates (an uncaught error in the process).
 */
import test from 'ava';
import { createDb, sqlPool } from '../src/index.ts';
import { createTestDatabase } from '@heroes/test-kit';

test('$disconnect ends the pool also when only sqlPool() queries ran on it', async (t) => {
  const database = await createTestDatabase();
  try {
    const db = createDb(database.url);
    await sqlPool(db).query('SELECT 1');
    await db.$disconnect();
    t.true(sqlPool(db).ended);
    t.is(sqlPool(db).stats().total, 0);
    await t.notThrowsAsync(db.$disconnect(), 'a second $disconnect is harmless');
  } finally {
    await database.drop();
  }
});

test('$disconnect ends the pool after Prisma queries too', async (t) => {
  const database = await createTestDatabase();
  try {
    const db = createDb(database.url);
    await db.$queryRaw`SELECT 1`;
    await sqlPool(db).query('SELECT 1');
    await db.$disconnect();
    t.true(sqlPool(db).ended);
  } finally {
    await database.drop();
  }
});

test('an idle connection that dies (a restart, a dropped database) is reported, never an uncaught error; the next query reconnects', async (t) => {
  const database = await createTestDatabase();
  let reported: (err: Error) => void = () => {};
  const died = new Promise<Error>((resolve) => { reported = resolve; });
  const db = createDb(database.url, { onIdleConnectionError: (err) => reported(err) });
  try {
    // Only sqlPool() has run on the pool: Prisma's adapter has not attached its own listener yet.
    const { rows } = await sqlPool(db).query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const admin = createDb(database.url, { maxConnections: 1 });
    try {
      await sqlPool(admin).query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    } finally {
      await admin.$disconnect();
    }
    t.regex((await died).message, /terminat/);
    t.is((await sqlPool(db).query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one, 1);
  } finally {
    await db.$disconnect();
    await database.drop();
  }
});
