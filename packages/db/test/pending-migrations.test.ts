/**
 * `npm start` runs the migration command only when hasPendingMigrations()
 * says a migration may be missing: it must say so for every state the
 * command would change or report, and "nothing pending" only when the
 * table records every migration folder, unchanged and finished.
 */
import test from 'ava';
import pg from 'pg';
import { applyMigrations, hasPendingMigrations } from '../src/index.ts';
import { createEmptyDatabase } from '@heroes/test-kit';

// Empty: these tests run `prisma migrate deploy` themselves.
const database = await createEmptyDatabase('heroes_pm_');
const { url } = database;
test.after.always(() => database.drop());

async function sql(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

test.serial('an empty database (no migrations table) has pending migrations', async (t) => {
  t.true(await hasPendingMigrations(url));
});

test.serial('after the migration command: nothing pending', async (t) => {
  await applyMigrations(url);
  t.false(await hasPendingMigrations(url));
});

test.serial('a migration the table does not record, an edited one, a failed attempt: pending', async (t) => {
  await sql("UPDATE _prisma_migrations SET migration_name = migration_name || '_renamed' WHERE migration_name = (SELECT max(migration_name) FROM _prisma_migrations)");
  t.true(await hasPendingMigrations(url), 'a folder not recorded');
  await sql("UPDATE _prisma_migrations SET migration_name = left(migration_name, -8) WHERE migration_name LIKE '%\\_renamed'");
  t.false(await hasPendingMigrations(url));

  // (the first character kept in a column of its own, to restore it)
  await sql('ALTER TABLE _prisma_migrations ADD COLUMN first text');
  await sql("UPDATE _prisma_migrations SET first = checksum, checksum = 'x' || substr(checksum, 2) WHERE migration_name = (SELECT min(migration_name) FROM _prisma_migrations)");
  t.true(await hasPendingMigrations(url), 'a migration.sql edited since it was applied');
  await sql("UPDATE _prisma_migrations SET checksum = first WHERE checksum LIKE 'x%'");
  await sql('ALTER TABLE _prisma_migrations DROP COLUMN first');
  t.false(await hasPendingMigrations(url));

  await sql(`INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, applied_steps_count)
    VALUES ('failed-attempt', repeat('0', 64), 'zz_failed', now(), 0)`);
  t.true(await hasPendingMigrations(url), 'a failed migration');
});

test('a database that cannot be reached: pending (the migration command reports why)', async (t) => {
  t.true(await hasPendingMigrations('postgresql://nobody@127.0.0.1:1/none'));
});
