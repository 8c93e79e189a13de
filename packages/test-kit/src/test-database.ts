/**
 * Test databases: every test file gets a fresh database of its own built from the committed migrations, so runs never
 * see each other's data.
 * Usage: const testDb = await createTestDatabase(); test.after.always(() => testDb.drop()); testDb.url
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { repoRoot } from './repo-root.ts';

const migrationsDir = path.join(repoRoot, 'prisma', 'migrations');

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** The server to create test databases on: DATABASE_URL (set by scripts/with-database.ts). */
export function adminUrl(): string {
  // eslint-disable-next-line no-restricted-syntax -- the test runner's server, not a service setting: test-kit imports no package of ours (the platform's tests import test-kit)
  const url = process.env['DATABASE_URL'];
  if (!url) throw new Error('DATABASE_URL is not set: run tests through `npm test`, which provides a PostgreSQL server');
  return url;
}

export function migrationSql(): string[] {
  return fs
    .readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => fs.readFileSync(path.join(migrationsDir, name, 'migration.sql'), 'utf8'));
}

/** A fresh database with the committed migrations applied (no Prisma history table). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const database = await createEmptyDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    for (const sql of migrationSql()) await client.query(sql);
  } finally {
    await client.end();
  }
  return database;
}

/**
 * A fresh EMPTY database, for tests that run `prisma migrate deploy`
 * themselves (scripts/start.ts): a database from createTestDatabase() holds
 * the tables without Prisma's history, and `migrate deploy` refuses it (P3005).
 */
export async function createEmptyDatabase(prefix = 'heroes_t_'): Promise<TestDatabase> {
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

export async function dropDatabase(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** A fresh database (createTestDatabase) and a small pg pool on it; close() ends the pool, then drops the database. */
export interface TestPool {
  pool: pg.Pool;
  database: TestDatabase;
  close(): Promise<void>;
}

export async function createTestPool(max = 4): Promise<TestPool> {
  const database = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: database.url, max });
  pool.on('error', () => {}); // idle connections cut when the database is dropped
  return {
    pool,
    database,
    async close() {
      await pool.end();
      await database.drop();
    },
  };
}
