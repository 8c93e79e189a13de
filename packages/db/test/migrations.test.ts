import test from 'ava';
import pg from 'pg';
import { applyMigrations, createDb } from '../src/index.ts';
import { createEmptyDatabase } from '@heroes/test-kit';

// Empty: these tests run `prisma migrate deploy` themselves.
const database = await createEmptyDatabase('heroes_m_');
const { url } = database;
test.after.always(() => database.drop());

test.serial('migrations apply to an empty database with the Prisma CLI', async (t) => {
  await applyMigrations(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const tables = await client.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
  );
  const applied = await client.query('SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL');
  await client.end();
  t.deepEqual(
    tables.rows.map((row) => row.table_name).filter((table) => !table.startsWith('_')),
    ['access_tokens', 'audit_events', 'authorization_codes', 'dpop_edge_proof_ids', 'dpop_edge_proof_ids_kept_since', 'dpop_proof_ids', 'heroes', 'idempotency_keys', 'login_known_addresses', 'login_throttles', 'oauth_clients', 'oidc_records', 'refresh_tokens', 'users'],
  );
  t.true(applied.rowCount! >= 1);
});

test.serial('applying migrations again is a no-op', async (t) => {
  await t.notThrowsAsync(applyMigrations(url));
});

test.serial('the schema enforces unique usernames and cascades tokens with their user', async (t) => {
  const db = createDb(url);
  try {
    const user = await db.user.create({ data: { username: 'bob', hashedPassword: 'h', salt: 's' } });
    await t.throwsAsync(db.user.create({ data: { username: 'bob', hashedPassword: 'h', salt: 's' } }), { message: /Unique constraint/ });
    await db.oAuthClient.create({ data: { id: 'app' } });
    await db.accessToken.create({
      data: { id: 'a'.repeat(64), clientId: 'app', userId: user.id, payload: {}, expiresAt: new Date(Date.now() + 60_000) },
    });
    await db.user.delete({ where: { id: user.id } });
    t.is(await db.accessToken.count(), 0);
  } finally {
    await db.$disconnect();
  }
});

test.serial('migrations fail with a clear error when the database is unreachable', async (t) => {
  const failed = await t.throwsAsync(applyMigrations('postgresql://postgres@127.0.0.1:1/nothing'), { message: /migrations failed/ });
  // The reason first: no Prisma banner, no "Driver Adapter … will NOT be used" warning before it.
  t.regex(failed!.message, /^migrations failed: Error: Can't reach database server at `127\.0\.0\.1:1`/);
  t.notRegex(failed!.message, /WARNING|will NOT be used/);
});
