/**
 * Two resource-server processes before one authorization server: a token cached by both dies on both after its
 * revocation (LISTEN/NOTIFY; how fast is the bench's `revocation` section), and repeated requests are answered from
 * the cache without introspection calls.
 */
import test from 'ava';
import { createDb, type PrismaClient } from '@heroes/db';
import { createTestDatabase, type TestDatabase } from '@heroes/test-kit';
import { waitFor } from '@heroes/test-kit';
import { bearer, request } from '../_helpers/http.ts';
import { addClient, passwordToken, revoke } from '../_helpers/oauth.ts';
import { freePort, startAuthProcess, startResourceProcess, type ChildServer } from '../_helpers/processes.ts';

let database: TestDatabase;
let db: PrismaClient;
let auth: ChildServer;
let edges: ChildServer[] = [];
const client = { id: 'revocation-app', secret: 'revocation-secret' };

const introspections = () => auth.output().split('\n').filter((line) => line.includes('"path":"/auth/introspect"')).length;

/**
 * Waits until the authorization server has printed the log lines of every request it answered so far: it
 * writes them in order, each when its response closes, so once a later request's line is out, so are they.
 */
async function authLogCaughtUp(): Promise<void> {
  const marker = `/log-marker-${crypto.randomUUID()}`;
  await request(`${auth.url}${marker}`);
  await waitFor(() => auth.output().includes(`"path":"${marker}"`), { message: () => auth.output() });
}

test.before(async () => {
  database = await createTestDatabase();
  db = createDb(database.url);
  const authPort = await freePort();
  auth = await startAuthProcess(database.url, authPort, `http://127.0.0.1:${authPort}`);
  // The second edge runs as two cluster workers (WORKERS=2). Both are replicas of one public base URL:
  // the issuer, and the audience (RFC 8707) they check.
  edges = await Promise.all(
    ['1', '2'].map(async (workers) => startResourceProcess(database.url, await freePort(), auth.url, { WORKERS: workers, PUBLIC_BASE_URL: `http://127.0.0.1:${authPort}` })),
  );
  await addClient(db, client);
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
  await authLogCaughtUp();
  // 20 requests: one introspection by the first edge, at most one per worker of the second.
  const calls = introspections() - before;
  t.true(calls >= 2 && calls <= 3, `${calls} introspection calls`);
});

test.serial('a revoked token stops working on both resource servers', async (t) => {
  const token = await passwordToken(auth.url, client, 'alice', 'alice password');
  const h = bearer(token.access_token);
  for (const edge of edges) {
    for (let i = 0; i < 4; i++) t.is((await request(`${edge.url}/heroes`, { headers: h })).status, 200, 'cached everywhere');
  }
  t.is(await revoke(auth.url, client, token.access_token), 200);
  // Refused several times in a row: each new connection to the second edge may reach either of its workers.
  const refused = async (url: string) => {
    for (let i = 0; i < 4; i++) if ((await request(`${url}/heroes`, { headers: h })).status !== 401) return false;
    return true;
  };
  await Promise.all(edges.map((edge) => waitFor(() => refused(edge.url), { message: `still accepted by ${edge.url}` })));
  t.pass('refused by both');
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
  await waitFor(async () => (await request(`${edge.url}/heroes`, { headers: bearer(a.access_token) })).status === 401, { message: 'the revoked token never died' });
  const before = await lookups(edge);
  for (let i = 0; i < 5; i++) t.is((await request(`${edge.url}/heroes`, { headers: bearer(b.access_token) })).status, 200);
  const after = await lookups(edge);
  t.is(after.miss, before.miss, 'the other grant was not introspected again');
  t.is(after.hit, before.hit + 5, 'it was answered from the cache');
});
