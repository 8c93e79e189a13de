/**
 * Search stays an index lookup as the table grows: with 100,000 heroes
 * (statistics gathered), PostgreSQL plans the repository's own search
 * statement for a rare pattern through the trigram index on lower(name),
 * not a scan of every row; and the index answers what a scan would.
 */
import test from 'ava';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@heroes/test-kit';
import { HERO_SQL, escapeLike } from '@heroes/db/pg';

let database: TestDatabase;
let client: pg.Client;

test.before(async () => {
  database = await createTestDatabase();
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  // Names over a-z from md5: a 4-letter pattern matches a few dozen rows.
  await client.query(`INSERT INTO heroes (name)
    SELECT 'Hero ' || i || ' ' || translate(md5(i::text), '0123456789abcdef', 'qrstuvwxyzabcdef') FROM generate_series(1, 100000) i`);
  await client.query('ANALYZE heroes');
});
test.after.always(async () => {
  await client?.end();
  await database?.drop();
});

async function planOf(pattern: string): Promise<string> {
  const { rows } = await client.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${HERO_SQL.searchPage}`, [0, 1001, escapeLike(pattern)]);
  return JSON.stringify(rows[0]!['QUERY PLAN']);
}

test('a rare pattern is searched through the trigram index, not a scan of the table', async (t) => {
  for (const pattern of ['wvut', 'WVUT', 'Hero 1999']) {
    const plan = await planOf(pattern);
    t.true(plan.includes('heroes_name_trgm_idx'), `${pattern}: ${plan}`);
    t.false(plan.includes('"Seq Scan"'), pattern);
  }
});

test('the indexed search answers what a full scan answers, ignoring case', async (t) => {
  const indexed = await client.query(HERO_SQL.searchPage, [0, 100_000, escapeLike('WvU')]);
  const scanned = await client.query(`SELECT id, name FROM heroes WHERE strpos(lower(name), 'wvu') > 0 ORDER BY id`);
  t.true(scanned.rows.length > 0);
  t.deepEqual(indexed.rows, scanned.rows);
});
