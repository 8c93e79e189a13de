/**
 * The banner of `npm start` (scripts/start/banner.ts): it names the pages a browser opens, and it
 * suggests registering `my-app` only while no such client exists.
 */
import test from 'ava';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@heroes/test-kit';
import { formatBanner } from '../../scripts/start/banner.ts';

let db: TestDatabase;
test.before(async () => {
  db = await createTestDatabase();
});
test.after.always(() => db?.drop());

const facts = () => ({ publicBaseUrl: 'http://localhost:8888', authPort: 8889, cliPrefix: '', databaseUrl: db.url });

test.serial('a first start suggests add-client and names /app and /docs', async (t) => {
  const banner = await formatBanner(facts());
  t.true(banner.includes('in a browser: http://localhost:8888/app (the web app), http://localhost:8888/docs (the API, to try)'));
  t.true(banner.includes('npx auth add-client --id my-app --secret my-secret'));
});

test.serial('once my-app exists, the banner says so instead of suggesting a command that would fail', async (t) => {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query("INSERT INTO oauth_clients (id, updated_at) VALUES ('my-app', now())");
  await client.end();
  const banner = await formatBanner(facts());
  t.false(banner.includes('add-client'));
  t.true(banner.includes("The OAuth client 'my-app' is registered (npx auth list-clients shows every client)."));
});
