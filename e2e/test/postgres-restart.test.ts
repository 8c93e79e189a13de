/**
 * A PostgreSQL restart under load, behind a transaction pooler: 2 authorization servers and 2 resource servers on
 * Debian's PgBouncer (server_login_retry 1 s, as docs/operations.md advises) in front of a PRIVATE PostgreSQL server
 * (@heroes/embedded-postgres: the machine's shared server is never restarted). While writers create heroes and
 * users get tokens through both edges, the server stops and starts again. Every replica recovers by itself (no
 * restart of any process), every write that was acknowledged is in the table, and no answer was a 500.
 */
import './_helpers/private-postgres-env.ts';
import test from 'ava';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@heroes/test-kit';
import { startEmbeddedPostgres, type EmbeddedServer } from '@heroes/embedded-postgres';
import { passwordToken, startPgBouncer, waitFor, type PgBouncer } from '@heroes/test-kit';
import { PASSWORD_CLIENT_ID, registerPasswordClient } from './_helpers/password-client.ts';
import { heroRequest, register } from './_helpers/pooler-suite.ts';
import { startReplicas, type Replicas } from './_helpers/replicas.ts';

const QUERY_TIMEOUT_MS = 3_000;
let server: EmbeddedServer | undefined;
let database: TestDatabase | undefined;
let bouncer: PgBouncer | undefined;
let replicas: Replicas | undefined;

test.before(async () => {
  server = await startEmbeddedPostgres({ log: () => {} });
  // The test databases are made on the private server.
  process.env['DATABASE_URL'] = server.superuserUrl;
  database = await createTestDatabase();
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  await admin.query(`ALTER DATABASE ${database.name} SET statement_timeout = ${QUERY_TIMEOUT_MS}`);
  await admin.query(`ALTER DATABASE ${database.name} SET lock_timeout = ${QUERY_TIMEOUT_MS}`);
  await admin.end();
  bouncer = await startPgBouncer({ serverUrl: database.url, poolMode: 'transaction', poolSize: 10, settings: { server_login_retry: 1 } });
  await registerPasswordClient(database.url);
  replicas = await startReplicas({
    databaseUrl: bouncer.url(database.name),
    directUrl: database.url,
    env: { DB_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS), DB_POOL_SIZE: '4', AUTH_DB_POOL_SIZE: '4', REGISTER_ADDRESS_LIMIT: '1000' },
  });
});

test.after.always(async () => {
  await replicas?.stop();
  await bouncer?.stop();
  await database?.drop().catch(() => {});
  await server?.stop();
});

test('a PostgreSQL restart under load: every replica recovers by itself, nothing acknowledged is lost, no 500', async (t) => {
  const { edges, auths } = replicas!;
  t.is((await register(edges[0]!.url, 'restart-user', 'restart-password-1')).status, 200);
  const token = (await passwordToken(edges[0]!.url, { id: PASSWORD_CLIENT_ID }, 'restart-user', 'restart-password-1')).access_token;
  const acknowledged: string[] = [];
  const statuses = new Map<number, number>();
  const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
  let running = true;
  let sequence = 0;
  const writer = async (edge: string, id: number) => {
    while (running) {
      const name = `restart-${id}-${sequence++}`;
      try {
        const res = await heroRequest(edge, token, 'POST', '/heroes', { name });
        await res.arrayBuffer();
        count(res.status);
        if (res.status === 200) acknowledged.push(name);
      } catch {
        count(0);
      }
    }
  };
  const tokens = async (edge: string) => {
    while (running) {
      try {
        const res = await fetch(`${edge}/auth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'password', client_id: PASSWORD_CLIENT_ID, username: 'restart-user', password: 'restart-password-1' }).toString(),
        });
        await res.arrayBuffer();
        count(res.status);
      } catch {
        count(0);
      }
    }
  };
  const load = [
    ...edges.flatMap((edge, i) => [writer(edge.url, 2 * i), writer(edge.url, 2 * i + 1)]),
    ...edges.map((edge) => tokens(edge.url)),
  ];
  await waitFor(() => acknowledged.length >= 20, { message: 'no write was acknowledged before the restart' });
  const before = acknowledged.length;

  const startedAt = async () => {
    const client = new pg.Client({ connectionString: database!.url });
    await client.connect();
    try {
      return (await client.query<{ at: string }>('SELECT pg_postmaster_start_time()::text AS at')).rows[0]!.at;
    } finally {
      await client.end();
    }
  };
  const firstStart = await startedAt();
  await server!.stop();
  server = await startEmbeddedPostgres({ log: () => {} });
  t.not(await startedAt(), firstStart, 'the server restarted');

  // Every replica serves again by itself: a write through each edge, a token from each authorization server.
  await waitFor(async () => {
    for (const edge of edges) if ((await heroRequest(edge.url, token, 'GET', '/heroes?limit=1')).status !== 200) return false;
    return acknowledged.length > before + 20;
  }, { timeoutMs: 60_000, message: () => `not recovered: ${JSON.stringify([...statuses])}` });
  for (const auth of auths) {
    const ready = await waitFor(async () => (await fetch(`${auth.url}/health/ready`)).status === 200, { timeoutMs: 60_000, message: `${auth.name} never ready again` });
    t.true(ready);
  }
  running = false;
  await Promise.all(load);
  t.log(`answers during the run: ${JSON.stringify(Object.fromEntries(statuses))}`);

  const all = new pg.Client({ connectionString: database!.url });
  await all.connect();
  t.teardown(() => all.end());
  const { rows } = await all.query<{ name: string }>("SELECT name FROM heroes WHERE name LIKE 'restart-%'");
  const stored = new Set(rows.map((row) => row.name));
  t.deepEqual(acknowledged.filter((name) => !stored.has(name)), [], 'every acknowledged write is stored');
  t.deepEqual([...statuses.keys()].filter((status) => status !== 200 && status !== 503).sort(), [], JSON.stringify([...statuses]));
  for (const replica of [...edges, ...auths]) t.is(replica.child.exitCode, null, `${replica.name} kept running`);
});
