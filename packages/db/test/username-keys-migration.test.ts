import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import pg from 'pg';
import { mapUsernames } from '../src/index.ts';
import { migrationsDir } from '../src/prisma-folder.ts';
import { createEmptyDatabase } from '@heroes/test-kit';

const MIGRATION = '20261127091113_username_keys';

function sqlOf(name: string): string {
  return fs.readFileSync(path.join(migrationsDir, name, 'migration.sql'), 'utf8');
}

test('the username key migration maps existing users; the oldest account keeps a name its look-alikes collide on', async (t) => {
  const names = fs.readdirSync(migrationsDir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const index = names.indexOf(MIGRATION);
  t.true(index > 0);
  const database = await createEmptyDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    for (const name of names.slice(0, index)) await client.query(sqlOf(name));
    const typed = ['alice', 'Alice', 'alice ', '\u0430lice', '\uff41\uff4c\uff49\uff43\uff45', 'jose\u0301', 'jos\u00e9', 'ali\u200bce'];
    for (const username of typed) {
      await client.query("INSERT INTO users (username, hashed_password, salt) VALUES ($1, 'h', 's')", [username]);
    }
    await client.query(sqlOf(MIGRATION));
    t.deepEqual(await mapUsernames(database.url), { mapped: 3, unmapped: 5 });
    const { rows } = await client.query<{ username: string; username_key: string | null; username_skeleton: string | null }>(
      'SELECT username, username_key, username_skeleton FROM users ORDER BY id',
    );
    t.deepEqual(rows.map((row) => [row.username, row.username_key, row.username_skeleton]), [
      ['alice', 'alice', 'alice'],
      ['Alice', null, null], // an older account holds the key
      ['alice ', null, null], // breaks the rule
      ['\u0430lice', '\u0430lice', null], // its skeleton is alice's: it keeps its key, not the skeleton
      ['\uff41\uff4c\uff49\uff43\uff45', null, null],
      ['jose\u0301', 'jos\u00e9', 'jose\u0301'], // the stored name keeps what was typed
      ['jos\u00e9', null, null],
      ['ali\u200bce', null, null],
    ]);
    t.deepEqual(await mapUsernames(database.url), { mapped: 0, unmapped: 5 }, 'a second run changes nothing');
    await t.throwsAsync(client.query("INSERT INTO users (username, username_key, hashed_password, salt) VALUES ('ALICE', 'alice', 'h', 's')"), { message: /users_username_key_key/ });
  } finally {
    await client.end();
    await database.drop();
  }
});
