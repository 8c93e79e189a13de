/**
 * A `LOCK TABLE heroes IN ACCESS EXCLUSIVE MODE` under write load, held
 * until the writes have timed out against it repeatedly: the
 * servers' DB_QUERY_TIMEOUT_MS is enforced by PostgreSQL itself
 * (statement_timeout and lock_timeout on every connection), so a POST
 * answered 503 was cancelled and rolled back — it is absent from the table
 * once the lock lifts, and every 200 is present — and no backend outlives its
 * request: the database never holds more connections than the two pools.
 */
import test from 'ava';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@heroes/test-kit';
import { passwordToken, waitFor } from '@heroes/test-kit';
import { startInProcessStack, type InProcessStack } from './_helpers/in-process-stack.ts';
import { PASSWORD_CLIENT_ID, registerPasswordClient } from './_helpers/password-client.ts';

const POOL_SIZE = 4;
const WRITERS = 12;

let database: TestDatabase;
let stack: InProcessStack | undefined;

test.before(async () => {
  database = await createTestDatabase();
  await registerPasswordClient(database.url);
  const limits = { dbQueryTimeoutMs: 1_000, dbConnectTimeoutMs: 5_000 };
  stack = await startInProcessStack(database.url, { ...limits, databasePoolSize: POOL_SIZE }, { ...limits, dbPoolSize: POOL_SIZE, introspectionTimeoutMs: 20_000 });
});

test.after.always(async () => {
  await stack?.close();
  await database?.drop();
});

async function accessToken(edge: string): Promise<string> {
  const credentials = { username: 'lock-user', password: 'hero-password-1' };
  const registered = await fetch(`${edge}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) });
  if (registered.status !== 200) throw new Error(`register: ${registered.status}`);
  return (await passwordToken(edge, { id: PASSWORD_CLIENT_ID }, credentials.username, credentials.password)).access_token;
}

test('a table lock under write load: every 503 wrote nothing, every 200 is stored, backends stay within the pools', async (t) => {
  const edge = stack!.edge;
  const token = await accessToken(edge);
  const answered = new Map<string, number>();
  let writing = true;
  let sequence = 0;
  const writer = async (id: number) => {
    while (writing) {
      const name = `hero-${id}-${sequence++}`;
      const res = await fetch(`${edge}/heroes`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      await res.arrayBuffer();
      answered.set(name, res.status);
    }
  };
  // Our own two connections (the lock holder, the observer) are not counted, nor the edge's revocation listener: a
  // connection of its own beside the pools (docs/operations.md, Connection poolers).
  const locker = new pg.Client({ connectionString: database.url });
  const observer = new pg.Client({ connectionString: database.url });
  await Promise.all([locker.connect(), observer.connect()]);
  t.teardown(() => Promise.all([locker.end(), observer.end()]).then(() => undefined));
  const backends = async () => {
    const { rows } = await observer.query<{ count: string }>(
      "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid NOT IN (pg_backend_pid(), $1) AND application_name <> 'resource-server-revocations'",
      [(locker as pg.Client & { processID: number }).processID],
    );
    return Number(rows[0]!.count);
  };
  let mostBackends = 0;
  const writers = Array.from({ length: WRITERS }, (_, id) => writer(id));
  await locker.query('BEGIN');
  await locker.query('LOCK TABLE heroes IN ACCESS EXCLUSIVE MODE');
  // Held until the writers have timed out against it twice each on average (a round of 503s after the pools filled), sampling the backends meanwhile.
  const timedOut = () => [...answered.values()].filter((status) => status === 503).length;
  await waitFor(async () => {
    mostBackends = Math.max(mostBackends, await backends());
    return timedOut() >= 2 * WRITERS;
  }, { intervalMs: 100, message: () => `${timedOut()} writes timed out against the lock` });
  await locker.query('COMMIT');
  writing = false;
  await Promise.all(writers);
  // Whatever PostgreSQL still runs for a request already answered would land now: wait until nothing runs.
  await waitFor(async () => {
    const { rows } = await observer.query<{ count: string }>(
      "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()",
    );
    mostBackends = Math.max(mostBackends, await backends());
    return Number(rows[0]!.count) === 0;
  }, { message: 'PostgreSQL still runs statements of answered requests' });
  const { rows } = await observer.query<{ name: string }>('SELECT name FROM heroes');
  const stored = new Set(rows.map((row) => row.name));
  const statuses = [...answered.values()];
  t.log(`${answered.size} POSTs: ${statuses.filter((s) => s === 200).length} × 200, ${statuses.filter((s) => s === 503).length} × 503; at most ${mostBackends} backends`);
  t.true(statuses.some((status) => status === 503), 'the lock made some writes time out');
  for (const [name, status] of answered) {
    t.true(status === 200 || status === 503, `${name}: ${status}`);
    if (status === 503) t.false(stored.has(name), `${name} answered 503 but was stored`);
    if (status === 200) t.true(stored.has(name), `${name} answered 200 but is missing`);
  }
  t.true(mostBackends <= 2 * POOL_SIZE, `${mostBackends} backends for two pools of ${POOL_SIZE}`);
});
