/**
 * createDb(): the pg pool behind the Prisma client (sqlPool) is closed by
 * $disconnect() whatever ran on it; a pool left open keeps connections that
 * a dropped database then terminates (an uncaught error in the process).
 */
import test from 'ava';
import { createDb, sqlPool } from '../src/index.ts';
import { createTestDatabase } from '../src/testing.ts';

test('$disconnect ends the pool also when only sqlPool() queries ran on it', async (t) => {
  const database = await createTestDatabase();
  try {
    const db = createDb(database.url);
    await sqlPool(db).query('SELECT 1');
    await db.$disconnect();
    t.true(sqlPool(db).ended);
    t.is(sqlPool(db).totalCount, 0);
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
