/**
 * The one naming rule (sql-pool.ts): statements go unnamed, so a transaction pooler (a real PgBouncer) may hand
 * every transaction another server connection; with DB_PREPARED_STATEMENTS their names are kept and PostgreSQL
 * prepares each once per connection.
 */
import test from 'ava';
import { startPgBouncer } from '@heroes/test-kit';
import { createDb, sqlPool } from '../src/index.ts';
import { createSqlPool } from '../src/sql-pool.ts';
import { createHeroRepository } from '../src/repositories/heroes.ts';
import { createTestDatabase, type TestDatabase } from '@heroes/test-kit';

let database: TestDatabase;
test.before(async () => {
  database = await createTestDatabase();
});
test.after.always(() => database?.drop());

const statement = (i: number) => ({ name: 'sql-pool-test', text: 'SELECT $1::int + 1 AS next', values: [i] });

test('through a transaction pooler, named statements from many clients at once all succeed (they go unnamed)', async (t) => {
  const bouncer = await startPgBouncer({ serverUrl: database.url, poolMode: 'transaction', poolSize: 3 });
  t.teardown(() => bouncer.stop());
  const sql = createSqlPool({ url: bouncer.url(database.name), max: 8 });
  t.teardown(() => sql.end());
  const db = createDb(bouncer.url(database.name), { maxConnections: 8 });
  t.teardown(() => db.$disconnect());
  const results = await Promise.all(Array.from({ length: 200 }, async (_, i) => {
    const through = i % 2 === 0 ? sql : sqlPool(db);
    return (await through.query<{ next: number }>(statement(i))).rows[0]!.next;
  }));
  t.deepEqual(results, Array.from({ length: 200 }, (_, i) => i + 1));
  // Prisma's own statements on the same pool pass too.
  t.is(await db.user.count(), 0);
});

test('with prepared statements on (a direct connection), a statement is prepared once per connection under its name', async (t) => {
  const sql = createSqlPool({ url: database.url, max: 1, preparedStatements: true });
  t.teardown(() => sql.end());
  await sql.query(statement(1));
  await sql.query(statement(2));
  const { rows } = await sql.query<{ name: string }>('SELECT name FROM pg_prepared_statements');
  t.deepEqual(rows.map((row) => row.name), ['sql-pool-test']);
});

test('off (the default), nothing is prepared by name', async (t) => {
  const sql = createSqlPool({ url: database.url, max: 1 });
  t.teardown(() => sql.end());
  await sql.query(statement(1));
  const { rows } = await sql.query('SELECT name FROM pg_prepared_statements');
  t.deepEqual(rows, []);
});

test('a transaction runs on one connection, also through a transaction pooler, and rolls back when its work throws', async (t) => {
  const bouncer = await startPgBouncer({ serverUrl: database.url, poolMode: 'transaction', poolSize: 2 });
  t.teardown(() => bouncer.stop());
  const sql = createSqlPool({ url: bouncer.url(database.name), max: 4 });
  t.teardown(() => sql.end());
  const pids = await sql.transaction(async (query) => {
    const first = await query<{ pid: number }>({ name: 'tx-pid', text: 'SELECT pg_backend_pid() AS pid' });
    await query({ name: 'tx-insert', text: 'INSERT INTO heroes (name) VALUES ($1)', values: ['In a transaction'] });
    const second = await query<{ pid: number }>({ name: 'tx-pid', text: 'SELECT pg_backend_pid() AS pid' });
    return [first.rows[0]!.pid, second.rows[0]!.pid];
  });
  t.is(pids[0], pids[1]);
  await t.throwsAsync(sql.transaction(async (query) => {
    await query({ text: 'INSERT INTO heroes (name) VALUES ($1)', values: ['Rolled back'] });
    throw new Error('changed my mind');
  }), { message: 'changed my mind' });
  const { rows } = await sql.query<{ name: string }>({ text: "SELECT name FROM heroes WHERE name IN ('In a transaction', 'Rolled back') ORDER BY name" });
  t.deepEqual(rows.map((row) => row.name), ['In a transaction']);
});

test('with prepared statements on, the name search is still never prepared: PostgreSQL plans it for each pattern', async (t) => {
  const sql = createSqlPool({ url: database.url, max: 1, preparedStatements: true });
  t.teardown(() => sql.end());
  const heroes = createHeroRepository(sql);
  const hero = await heroes.create('Searchable Sam');
  t.deepEqual(await heroes.find(hero.id), hero);
  t.deepEqual(await heroes.page({ after: 0, limit: 10, nameContains: 'searchABLE' }), [hero]);
  t.deepEqual(await heroes.page({ after: 0, limit: 10, nameContains: 'nobody' }), []);
  const { rows } = await sql.query<{ name: string; statement: string }>('SELECT name, statement FROM pg_prepared_statements');
  t.true(rows.some((row) => row.name === 'heroes-find'), 'the point lookup is prepared');
  t.deepEqual(rows.filter((row) => row.statement.includes('LIKE')), [], 'the search is not');
  await heroes.remove(hero.id);
});
