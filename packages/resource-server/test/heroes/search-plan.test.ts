/**
 * Search stays an index lookup as the table grows: with 100,000 heroes
 * (statistics gathered), PostgreSQL plans the repository's own search
 * statement for a rare pattern through the trigram index on the lower-case name,
 * not a scan of every row; and the index answers what a scan would. Heroes
 * written since the last vacuum cost a search nothing more: the index keeps no
 * pending list (GIN's fastupdate off) that every search would read through. And the search is never a prepared
 * statement, even with prepared statements on: PostgreSQL plans it for each pattern, never generically.
 */
import test from 'ava';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@heroes/test-kit';
import { HERO_SQL, createHeroRepository, createSqlPool, escapeLike } from '@heroes/db/pg';

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

/** The first page's statement and a later page's, with their values for `pattern` (at most `limit` rows). */
function searches(pattern: string, limit: number): Array<[string, unknown[]]> {
  return [[HERO_SQL.searchFirst, [limit, escapeLike(pattern)]], [HERO_SQL.searchPage, [0, limit, escapeLike(pattern)]]];
}

test('a rare pattern is searched through the trigram index, not a scan of the table', async (t) => {
  for (const pattern of ['wvut', 'WVUT', 'Hero 1999']) {
    for (const [statement, values] of searches(pattern, 1001)) {
      const { rows } = await client.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${statement}`, values);
      const plan = JSON.stringify(rows[0]!['QUERY PLAN']);
      t.true(plan.includes('heroes_name_trgm_idx'), `${pattern}: ${plan}`);
      t.false(plan.includes('"Seq Scan"'), pattern);
    }
  }
});

test('the indexed search answers what a full scan answers, ignoring case', async (t) => {
  const scanned = await client.query(`SELECT id, name FROM heroes WHERE strpos(lower(name), 'wvu') > 0 ORDER BY id`);
  t.true(scanned.rows.length > 0);
  for (const [statement, values] of searches('WvU', 100_000)) {
    t.deepEqual((await client.query(statement, values)).rows, scanned.rows);
  }
});

test.serial('heroes just written add nothing to the index pages a search reads (no GIN pending list)', async (t) => {
  // Serial: it runs before the others, which then see these rows too. The index's pending list (if any) emptied, then
  // 3,000 heroes in one statement: with fastupdate on their trigram entries wait in the pending list (about 340 pages,
  // under its 4 MB limit, so nothing merges them) and the search below reads every page of it.
  await client.query("SELECT gin_clean_pending_list('heroes_name_trgm_idx'::regclass)");
  await client.query(`INSERT INTO heroes (name)
    SELECT 'Late ' || i || ' ' || translate(md5(i::text), '0123456789abcdef', 'qrstuvwxyzabcdef') FROM generate_series(1, 3000) i`);
  const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
    `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${HERO_SQL.searchFirst}`, [1001, escapeLike('wvut')],
  );
  const scan = findNode(rows[0]!['QUERY PLAN'][0]!.Plan, 'Bitmap Index Scan');
  t.truthy(scan, JSON.stringify(rows[0]));
  const pages = scan!['Shared Hit Blocks'] + scan!['Shared Read Blocks'];
  // Two trigrams' posting lists over 103,000 rows: under ten pages.
  t.true(pages < 30, `the trigram index scan read ${pages} pages`);
});

test('the repository never prepares the search, so PostgreSQL never gives it a generic plan', async (t) => {
  // One connection with prepared statements on (DB_PREPARED_STATEMENTS): more than the five runs after which
  // PostgreSQL may switch a prepared statement to its generic plan.
  const sql = createSqlPool({ url: database.url, max: 1, preparedStatements: true });
  try {
    const heroes = createHeroRepository(sql);
    for (let i = 0; i < 8; i++) {
      t.true((await heroes.page({ after: 0, limit: 1000, nameContains: 'wvut' })).length > 0);
      await heroes.find(1);
    }
    const { rows } = await sql.query<{ name: string; statement: string }>({ text: 'SELECT name, statement FROM pg_prepared_statements' });
    t.true(rows.some((row) => row.name === 'heroes-find'), `the lookup is prepared on this connection: ${JSON.stringify(rows)}`);
    t.false(rows.some((row) => row.statement.includes('LIKE')), JSON.stringify(rows));
  } finally {
    await sql.end();
  }
});

interface PlanNode {
  'Node Type': string;
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
  Plans?: PlanNode[];
}

function findNode(node: PlanNode, type: string): PlanNode | undefined {
  if (node['Node Type'] === type) return node;
  for (const child of node.Plans ?? []) {
    const found = findNode(child, type);
    if (found) return found;
  }
  return undefined;
}
