/**
 * Two resource-server processes in front of one authorization server
 * process: a token cached by both dies on both within 1 s of its
 * revocation (PostgreSQL LISTEN/NOTIFY), and repeated requests with the
 * same token are answered from the cache, without introspection calls.
 */
import test from 'ava';
import { createDb, type PrismaClient } from '@heroes/db';
import { createTestDatabase, type TestDatabase } from '@heroes/db/testing';
import { bearer, request } from '../_helpers/http.ts';
import { addClient, passwordToken, revoke } from '../_helpers/oauth.ts';
import { freePort, startAuthProcess, startResourceProcess, type ChildServer } from '../_helpers/processes.ts';

let database: TestDatabase;
let db: PrismaClient;
let auth: ChildServer;
let edges: ChildServer[] = [];
const client = { id: 'revocation-app', secret: 'revocation-secret' };

const introspections = () => auth.output().split('\n').filter((line) => line.includes('"path":"/auth/introspect"')).length;

test.before(async () => {
  database = await createTestDatabase();
  db = createDb(database.url);
  const authPort = await freePort();
  auth = await startAuthProcess(database.url, authPort, `http://127.0.0.1:${authPort}`);
  // The second edge runs as two cluster workers (WORKERS=2).
  edges = await Promise.all(
    ['1', '2'].map(async (workers) => startResourceProcess(database.url, await freePort(), auth.url, { WORKERS: workers })),
  );
  await addClient(db, client.id, client.secret);
  const res = await request(`${edges[0]!.url}/register`, { method: 'POST', json: { username: 'alice', password: 'alice password' } });
  if (res.status !== 200) throw new Error(res.text);
});
test.after.always(async () => {
  await Promise.all(edges.map((edge) => edge.stop()));
  await auth?.stop();
  await db?.$disconnect();
  await database?.drop();
});

test.serial('repeated requests with one token introspect once per process', async (t) => {
  const token = await passwordToken(auth.url, client, 'alice', 'alice password');
  const before = introspections();
  for (let i = 0; i < 10; i++) {
    for (const edge of edges) t.is((await request(`${edge.url}/heroes`, { headers: bearer(token.access_token) })).status, 200);
  }
  await new Promise((resolve) => setTimeout(resolve, 200)); // let the log lines arrive
  // 20 requests: one introspection by the first edge, at most one per worker of the second.
  const calls = introspections() - before;
  t.true(calls >= 2 && calls <= 3, `${calls} introspection calls`);
});

test.serial('a revoked token stops working on both resource servers within 1 s', async (t) => {
  const token = await passwordToken(auth.url, client, 'alice', 'alice password');
  const h = bearer(token.access_token);
  for (const edge of edges) {
    for (let i = 0; i < 4; i++) t.is((await request(`${edge.url}/heroes`, { headers: h })).status, 200, 'cached everywhere');
  }
  t.is(await revoke(auth.url, client, token.access_token), 200);
  const revokedAt = Date.now();
  const deadAfter = await Promise.all(
    edges.map(async (edge) => {
      while (Date.now() - revokedAt < 1_000) {
        if ((await request(`${edge.url}/heroes`, { headers: h })).status === 401) return Date.now() - revokedAt;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return Infinity;
    }),
  );
  t.log(`dead on both after ${deadAfter.join(' ms, ')} ms`);
  for (const ms of deadAfter) t.true(ms < 1_000);
});

/** The edge process's introspection cache lookups by result (its /metrics, loopback may read). */
async function lookups(edge: ChildServer): Promise<Record<'hit' | 'miss', number>> {
  const text = await (await fetch(`${edge.url}/metrics`)).text();
  const read = (result: string) => Number(new RegExp(`^introspection_cache_lookups_total\\{result="${result}"[^}]*\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
  return { hit: read('hit'), miss: read('miss') };
}

test.serial('revoking one grant leaves another grant\'s cached token alone: no new introspection for it', async (t) => {
  const edge = edges[0]!;
  const [a, b] = [await passwordToken(auth.url, client, 'alice', 'alice password'), await passwordToken(auth.url, client, 'alice', 'alice password')];
  for (const token of [a, b]) t.is((await request(`${edge.url}/heroes`, { headers: bearer(token.access_token) })).status, 200);
  t.is(await revoke(auth.url, client, a.access_token), 200);
  const deadline = Date.now() + 10_000;
  while ((await request(`${edge.url}/heroes`, { headers: bearer(a.access_token) })).status === 200 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  t.is((await request(`${edge.url}/heroes`, { headers: bearer(a.access_token) })).status, 401, 'the revoked token died');
  const before = await lookups(edge);
  for (let i = 0; i < 5; i++) t.is((await request(`${edge.url}/heroes`, { headers: bearer(b.access_token) })).status, 200);
  const after = await lookups(edge);
  t.is(after.miss, before.miss, 'the other grant was not introspected again');
  t.is(after.hit, before.hit + 5, 'it was answered from the cache');
});
