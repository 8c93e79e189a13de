import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import pg from 'pg';

// The embedded server keeps its cluster under HEROES_DATA_DIR: use a private
// one, left 0700 as mkdtemp makes it (as a checkout under `mktemp -d` would be).
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'heroes-embedded-'));
process.env.HEROES_DATA_DIR = dataDir;
process.env.EMBEDDED_PG_PORT = String(55000 + (process.pid % 1000));
const { startEmbeddedPostgres } = await import('../src/embedded-postgres.ts');

test.after.always(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function query(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

test.serial('starts a real PostgreSQL server, keeps its data between runs and is reused while running', async (t) => {
  const first = await startEmbeddedPostgres();
  t.true(first.startedHere);
  if (process.getuid?.() === 0) {
    t.is(fs.statSync(dataDir).mode & 0o001, 0o001, 'as root, the postgres user may search the data folder');
  }
  await query(first.url, 'CREATE TABLE kept (value text); INSERT INTO kept VALUES (\'still here\')');

  const attached = await startEmbeddedPostgres();
  t.false(attached.startedHere, 'a second start attaches to the running server');
  t.is(attached.url, first.url);
  await attached.stop(); // a no-op: it did not start the server
  t.is((await query(first.url, 'SELECT 1 AS one')).rows[0].one, 1);

  await first.stop();
  await t.throwsAsync(query(first.url, 'SELECT 1'));

  const second = await startEmbeddedPostgres();
  t.true(second.startedHere);
  t.is((await query(second.url, 'SELECT value FROM kept')).rows[0].value, 'still here');
  await second.stop();
});
