import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import pg from 'pg';
import { migrationsDir } from '../src/prisma-folder.ts';
import { createEmptyDatabase } from '@heroes/test-kit';

const MIGRATION = '20261123150000_client_redirect_uris';

function sqlOf(name: string): string {
  return fs.readFileSync(path.join(migrationsDir, name, 'migration.sql'), 'utf8');
}

test('the redirect URI list migration keeps every registered redirect URI', async (t) => {
  const names = fs.readdirSync(migrationsDir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const index = names.indexOf(MIGRATION);
  t.true(index > 0);
  const database = await createEmptyDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    for (const name of names.slice(0, index)) await client.query(sqlOf(name));
    await client.query(`INSERT INTO oauth_clients (id, redirect_uri) VALUES ('web', 'https://app.example/cb?x=1'), ('native', 'com.example.app:/cb'), ('none', NULL), ('blank', '')`);
    await client.query(sqlOf(MIGRATION));
    const { rows } = await client.query<{ id: string; redirect_uris: string[] }>('SELECT id, redirect_uris FROM oauth_clients ORDER BY id');
    t.deepEqual(rows.map((row) => [row.id, row.redirect_uris]), [
      ['blank', []],
      ['native', ['com.example.app:/cb']],
      ['none', []],
      ['web', ['https://app.example/cb?x=1']],
    ]);
    const columns = await client.query("SELECT 1 FROM information_schema.columns WHERE table_name = 'oauth_clients' AND column_name = 'redirect_uri'");
    t.is(columns.rowCount, 0, 'the single-URI column is gone');
  } finally {
    await client.end();
    await database.drop();
  }
});
