/**
 * Revocation crosses replicas behind a transaction pooler (docs/operations.md, "Connection poolers"): 2
 * authorization servers and 2 edges whose DATABASE_URL is Debian's PgBouncer in transaction mode and whose
 * DATABASE_DIRECT_URL is the database itself, where each edge's revocation feed LISTENs. A token cached by both
 * edges and revoked through the first is refused by both long before the cache lifetime (60 s) would have ended it:
 * the notice crossed (how fast: `npm run bench`, section `revocation`). Readiness says the feeds are up, and they are.
 */
import test from 'ava';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@heroes/test-kit';
import { passwordToken, startPgBouncer, waitFor, type PgBouncer } from '@heroes/test-kit';
import { PASSWORD_CLIENT_ID, registerPasswordClient } from './_helpers/password-client.ts';
import { startReplicas, type Replicas } from './_helpers/replicas.ts';

const QUERY_TIMEOUT_MS = 5_000;
let database: TestDatabase;
let bouncer: PgBouncer;
let replicas: Replicas;

test.before(async () => {
  database = await createTestDatabase();
  // What the pooler cannot pass on at connection start, set on the database (docs/operations.md).
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  await admin.query(`ALTER DATABASE ${database.name} SET statement_timeout = ${QUERY_TIMEOUT_MS}`);
  await admin.query(`ALTER DATABASE ${database.name} SET lock_timeout = ${QUERY_TIMEOUT_MS}`);
  await admin.end();
  await registerPasswordClient(database.url);
  bouncer = await startPgBouncer({ serverUrl: database.url, poolMode: 'transaction', poolSize: 10 });
  replicas = await startReplicas({
    databaseUrl: bouncer.url(database.name),
    directUrl: database.url,
    env: { DB_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS), DB_POOL_SIZE: '4', AUTH_DB_POOL_SIZE: '4', INTROSPECTION_CACHE_TTL_MS: '60000' },
  });
});
test.after.always(async () => {
  await replicas?.stop();
  await bouncer?.stop();
  await database?.drop();
});

const heroes = (edge: string, token: string) => fetch(`${edge}/heroes`, { headers: { authorization: `Bearer ${token}` } }).then(async (res) => {
  await res.arrayBuffer();
  return res.status;
});

test.serial('a token revoked through one edge is refused by every edge, its feed on DATABASE_DIRECT_URL', async (t) => {
  const [one, two] = replicas.edges.map((edge) => edge.url) as [string, string];
  for (const edge of [one, two]) {
    const ready = (await (await fetch(`${edge}/health/ready`)).json()) as { checks: Record<string, string> };
    t.like(ready.checks, { revocationFeed: 'up', queryTimeouts: 'up' });
  }
  const registered = await fetch(`${one}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'revoked-user', password: 'pooled-password-1' }) });
  t.is(registered.status, 200, await registered.text());
  for (let round = 0; round < 3; round++) {
    const { access_token: token } = await passwordToken(one, { id: PASSWORD_CLIENT_ID }, 'revoked-user', 'pooled-password-1');
    // Cached by both edges (the second request of each is a cache hit).
    for (const edge of [one, two, one, two]) t.is(await heroes(edge, token), 200);
    const revoked = await fetch(`${one}/auth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, client_id: PASSWORD_CLIENT_ID }).toString(),
    });
    t.is(revoked.status, 200);
    // Well inside the cache's 60 s: only the feed can have evicted it.
    for (const edge of [two, one]) {
      await waitFor(async () => (await heroes(edge, token)) === 401, { timeoutMs: 10_000, message: `round ${round}: still accepted by ${edge}` });
    }
  }
  t.pass();
});
