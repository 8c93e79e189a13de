/**
 * isTransactionPooled tells a transaction pooler (where LISTEN and Prisma's session advisory lock cannot work) from
 * a direct connection and from session pooling (where they do), against Debian's PgBouncer.
 */
import test from 'ava';
import pg from 'pg';
import { startPgBouncer } from '@heroes/test-kit';
import { isTransactionPooled } from '../src/index.ts';
import { adminUrl } from '@heroes/test-kit';

const serverUrl = adminUrl();

test('a direct connection is not transaction-pooled', async (t) => {
  t.false(await isTransactionPooled(serverUrl));
});

test('PgBouncer in session mode is not transaction-pooled', async (t) => {
  const bouncer = await startPgBouncer({ serverUrl, poolMode: 'session', poolSize: 4 });
  t.teardown(() => bouncer.stop());
  t.false(await isTransactionPooled(bouncer.url()));
});

for (const poolSize of [1, 2, 10]) {
  test(`PgBouncer in transaction mode is (pool of ${poolSize})`, async (t) => {
    const bouncer = await startPgBouncer({ serverUrl, poolMode: 'transaction', poolSize });
    t.teardown(() => bouncer.stop());
    // Several idle server connections in the pool, as a running service leaves them.
    const clients = Array.from({ length: poolSize }, () => new pg.Client({ connectionString: bouncer.url() }));
    await Promise.all(clients.map((client) => client.connect()));
    await Promise.all(clients.map((client) => client.query('BEGIN').then(() => client.query('SELECT 1')).then(() => client.query('COMMIT'))));
    await Promise.all(clients.map((client) => client.end()));
    t.true(await isTransactionPooled(bouncer.url()));
    t.true(await isTransactionPooled(bouncer.url()));
  });
}

test('an unreachable database rejects (no answer either way)', async (t) => {
  await t.throwsAsync(isTransactionPooled('postgresql://postgres@127.0.0.1:1/nothing', { connectTimeoutMs: 1_000 }));
});
