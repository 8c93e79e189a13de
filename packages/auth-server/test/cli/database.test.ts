import test from 'ava';
import crypto from 'node:crypto';
import pg from 'pg';
import { createDb } from '@heroes/db';
import { adminUrl, dropDatabase, withDatabase } from '@heroes/db/testing';
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
  const name = `heroes_t_empty_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = withDatabase(adminUrl(), name);
  t.teardown(() => dropDatabase(name));
  const result = await runAuth(['add-client', '--id', 'first'], { databaseUrl: url });
  t.is(result.code, 0, result.stderr);
  t.regex(result.stderr, /applying migrations/);
  const db = createDb(url);
  t.teardown(() => db.$disconnect());
  t.truthy(await db.oAuthClient.findUnique({ where: { id: 'first' } }));
});
