/**
 * Migrations through every topology (docs/operations.md, "Connection poolers"): Prisma's session advisory lock
 * outlives the command behind a transaction pooler (the next migration would wait and fail), so migrations refuse
 * there with one line before Prisma runs; through a session pooler and directly they apply and no session keeps the lock.
 */
import test from 'ava';
import pg from 'pg';
import { startPgBouncer } from '@heroes/test-kit';
import { applyMigrations } from '../src/index.ts';
import { createEmptyDatabase, type TestDatabase } from '@heroes/test-kit';

const PRISMA_LOCK = 72707369;
const databases: TestDatabase[] = [];
test.after.always(() => Promise.all(databases.map((database) => database.drop())));

async function emptyDatabase(): Promise<TestDatabase> {
  const database = await createEmptyDatabase('heroes_mp_');
  databases.push(database);
  return database;
}

/** Sessions of `database` holding Prisma's migration lock. */
async function lockHolders(database: TestDatabase): Promise<number> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ holders: number }>(
      `SELECT count(*)::int AS holders FROM pg_locks l JOIN pg_database d ON d.oid = l.database
        WHERE l.locktype = 'advisory' AND l.granted AND l.objid = $1 AND d.datname = $2`,
      [PRISMA_LOCK, database.name],
    );
    return rows[0]!.holders;
  } finally {
    await client.end();
  }
}

async function appliedMigrations(database: TestDatabase): Promise<number> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query('SELECT 1 FROM _prisma_migrations WHERE finished_at IS NOT NULL')).rowCount ?? 0;
  } catch {
    return 0;
  } finally {
    await client.end();
  }
}

test('through a transaction pooler migrations refuse with one line naming the cause, and hold no lock', async (t) => {
  const database = await emptyDatabase();
  const bouncer = await startPgBouncer({ serverUrl: database.url, poolMode: 'transaction', poolSize: 4 });
  t.teardown(() => bouncer.stop());
  const refused = await t.throwsAsync(applyMigrations(bouncer.url(database.name)));
  t.regex(refused!.message, /^migrations refused: database "heroes_mp_\w+" at 127\.0\.0\.1:\d+ is a transaction pooler/);
  t.regex(refused!.message, /DATABASE_DIRECT_URL/);
  t.notRegex(refused!.message, /\n/);
  t.is(await lockHolders(database), 0);
  t.is(await appliedMigrations(database), 0, 'nothing applied half-way');
  // The direct URL, right after: no lock left to wait for.
  await applyMigrations(database.url);
  t.true(await appliedMigrations(database) > 0);
});

test('through a session pooler migrations apply and leave no session holding the lock', async (t) => {
  const database = await emptyDatabase();
  const bouncer = await startPgBouncer({ serverUrl: database.url, poolMode: 'session', poolSize: 4 });
  t.teardown(() => bouncer.stop());
  await applyMigrations(bouncer.url(database.name));
  t.true(await appliedMigrations(database) > 0);
  t.is(await lockHolders(database), 0, 'the pooler reset the session when Prisma closed it');
  await t.notThrowsAsync(applyMigrations(bouncer.url(database.name)), 'a second run finds the lock free');
  t.is(await lockHolders(database), 0);
});

test('directly, no session holds the lock once applyMigrations returns', async (t) => {
  const database = await emptyDatabase();
  await applyMigrations(database.url);
  t.is(await lockHolders(database), 0);
});
