/**
 * An EMPTY database on the test PostgreSQL server (DATABASE_URL), for tests
 * that start the stack through scripts/start.ts: the start script applies the
 * migrations itself (`prisma migrate deploy`). A database from
 * createTestDatabase() cannot be used there: it already holds the tables but
 * no `_prisma_migrations` history, so `migrate deploy` stops with P3005
 * ("The database schema is not empty").
 *
 * Usage:
 *   const database = await createEmptyDatabase();
 *   test.after.always(() => database.drop());
 */
import crypto from 'node:crypto';
import pg from 'pg';
import { adminUrl, dropDatabase, withDatabase, type TestDatabase } from '@heroes/db/testing';

export async function createEmptyDatabase(prefix = 'heroes_e2e_'): Promise<TestDatabase> {
  const name = `${prefix}${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return { url: withDatabase(adminUrl(), name), name, drop: () => dropDatabase(name) };
}
