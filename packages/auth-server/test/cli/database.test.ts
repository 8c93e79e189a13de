import test from 'ava';
import { createDb } from '@heroes/db';
import { createEmptyDatabase } from '@heroes/test-kit';
import { startPgBouncer } from '@heroes/test-kit';
import { runAuth } from '../_helpers/run-auth.ts';

test('an unreachable database gives one line and exit 1', async (t) => {
  const result = await runAuth(['list-clients'], { databaseUrl: 'postgresql://someone:pw@127.0.0.1:1/heroes' });
  t.is(result.code, 1);
  t.is(result.stderr, 'cannot reach the database at 127.0.0.1:1\n');
  t.is(result.stdout, '');
});

test('a write against an unreachable database gives the same line', async (t) => {
  const result = await runAuth(['add-client', '--id', 'x', '--secret', 'top-secret'], { databaseUrl: 'postgresql://postgres@127.0.0.1:1/heroes' });
  t.is(result.code, 1);
  t.is(result.stderr, 'cannot reach the database at 127.0.0.1:1\n');
  t.false(result.stderr.includes('top-secret'));
});

test('a database without tables gets the migrations, then the command runs', async (t) => {
  const { url, drop } = await createEmptyDatabase('heroes_t_empty_');
  t.teardown(drop);
  const result = await runAuth(['add-client', '--id', 'first'], { databaseUrl: url });
  t.is(result.code, 0, result.stderr);
  t.regex(result.stderr, /applying migrations/);
  const db = createDb(url);
  t.teardown(() => db.$disconnect());
  t.truthy(await db.oAuthClient.findUnique({ where: { id: 'first' } }));
});

test('behind a transaction pooler, a database without tables is migrated on DATABASE_DIRECT_URL, then the command runs through the pooler', async (t) => {
  const database = await createEmptyDatabase('heroes_t_pooled_');
  t.teardown(database.drop);
  const bouncer = await startPgBouncer({ serverUrl: database.url, poolMode: 'transaction', poolSize: 4 });
  t.teardown(() => bouncer.stop());
  const pooled = bouncer.url(database.name);
  const refused = await runAuth(['add-client', '--id', 'pooled'], { databaseUrl: pooled, env: { DATABASE_DIRECT_URL: '' } });
  t.is(refused.code, 1);
  t.regex(refused.stderr, /migrations refused: .* is a transaction pooler .*DATABASE_DIRECT_URL/);
  const result = await runAuth(['add-client', '--id', 'pooled'], { databaseUrl: pooled, env: { DATABASE_DIRECT_URL: database.url } });
  t.is(result.code, 0, result.stderr);
  t.regex(result.stderr, /applying migrations/);
  const db = createDb(database.url);
  t.teardown(() => db.$disconnect());
  t.truthy(await db.oAuthClient.findUnique({ where: { id: 'pooled' } }));
});
