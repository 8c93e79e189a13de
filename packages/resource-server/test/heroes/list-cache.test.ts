/**
 * The whole-list cache (data/hero-list-cache.ts) across two replicas on one database: a write is in the next list of
 * the replica that acknowledged it, and in every replica's once its list ages out (inside the 1 s revocation bound),
 * made through the other replica or in SQL.
 */
import http from 'node:http';
import test from 'ava';
import { createTestDatabase, type TestDatabase } from '@heroes/test-kit';
import { waitFor } from '@heroes/test-kit';
import { activeToken, startFakeAuthServer, type FakeAuthServer } from '../_helpers/fake-auth-server.ts';
import { bearer, request } from '../_helpers/http.ts';
import { startInProcess, type InProcessServer } from '../_helpers/in-process.ts';
import { HeroListCache } from '../../src/data/hero-list-cache.ts';

let auth: FakeAuthServer;
let database: TestDatabase;
let replicas: InProcessServer[] = [];
const token = 'list-cache-token';
const h = bearer(token);
type HeroBody = { id: number; name: string };

test.before(async () => {
  auth = await startFakeAuthServer();
  auth.tokens.set(token, activeToken());
  database = await createTestDatabase();
  replicas = [await startInProcess(auth.url, {}, database), await startInProcess(auth.url, {}, database)];
});
test.after.always(async () => {
  await Promise.all(replicas.map((replica) => replica.close()));
  await database?.drop();
  await auth?.close();
});

const names = async (replica: InProcessServer) => ((await request(`${replica.url}/heroes`, { headers: h })).body as HeroBody[]).map((hero) => hero.name);

/**
 * Resolves once `replica`'s list satisfies `check` (polled). Its kept list
 * ages out after 500 ms (FIXED.heroListCacheMs); the deadline, 20 times
 * that, only catches a list kept for good. The age itself is checked with
 * explicit times below ('a list is kept no longer than its age'), never
 * with the clock of a loaded machine.
 */
async function seenOn(replica: InProcessServer, check: (list: string[]) => boolean, what: string): Promise<void> {
  await waitFor(async () => check(await names(replica)), { timeoutMs: 10_000, message: `${replica.url} never showed ${what}` });
}

test.serial('create, rename and delete are in the next list of the replica that made them, and on the other once its list ages out', async (t) => {
  const [a, b] = [replicas[0]!, replicas[1]!];
  for (const replica of replicas) await names(replica); // both lists cached
  const created = (await request(`${a.url}/heroes`, { method: 'POST', headers: h, json: { name: 'Cached Carl' } })).body as HeroBody;
  t.true((await names(a)).includes('Cached Carl'), 'at once on the replica that wrote');
  await seenOn(b, (list) => list.includes('Cached Carl'), 'the created hero');

  for (const replica of replicas) await names(replica);
  t.is((await request(`${b.url}/heroes/${created.id}`, { method: 'PUT', headers: h, json: { name: 'Cached Cora' } })).status, 200);
  t.true((await names(b)).includes('Cached Cora'));
  await seenOn(a, (list) => list.includes('Cached Cora') && !list.includes('Cached Carl'), 'the renamed hero');

  for (const replica of replicas) await names(replica);
  t.is((await request(`${a.url}/heroes/${created.id}`, { method: 'DELETE', headers: h })).status, 204);
  t.false((await names(a)).includes('Cached Cora'));
  await seenOn(b, (list) => !list.includes('Cached Cora'), 'the deletion');
});

test.serial('a hero written straight in SQL is in every replica\'s list once their lists age out', async (t) => {
  for (const replica of replicas) await names(replica);
  await replicas[0]!.db.hero.create({ data: { name: 'Sql Sally' } });
  await Promise.all(replicas.map((replica) => seenOn(replica, (list) => list.includes('Sql Sally'), 'the hero written in SQL')));
  t.pass();
});

test('a list read before a write is not kept, and a list is kept no longer than its age', (t) => {
  const cache = new HeroListCache(60_000);
  const before = cache.generation;
  cache.invalidate(); // a write ended while the read was running
  cache.store(before, [{ id: 1, name: 'old' }], performance.now());
  t.is(cache.read(), undefined);
  cache.store(cache.generation, [{ id: 1, name: 'new' }], performance.now());
  t.deepEqual(cache.read(), [{ id: 1, name: 'new' }]);
  cache.store(cache.generation, [{ id: 1, name: 'stale' }], performance.now() - 60_001);
  t.is(cache.read(), undefined, 'its age counts from before its query');
  const off = new HeroListCache(0);
  off.store(off.generation, [{ id: 1, name: 'x' }], performance.now());
  t.is(off.read(), undefined, 'maxAgeMs 0 keeps nothing');
});

/** Status, header fields in order (without Date and X-Request-Id, which differ per answer) and body bytes of one GET. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; fields: string[]; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const fields: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!.toLowerCase();
          if (name !== 'date' && name !== 'x-request-id') fields.push(`${name}: ${res.rawHeaders[i + 1]}`);
        }
        resolve({ status: res.statusCode!, fields, body: Buffer.concat(chunks) });
      });
    }).on('error', reject);
  });
}

test.serial('a list answered from the cache has the bytes and header fields of the list encoded after its query', async (t) => {
  const replica = replicas[0]!;
  await request(`${replica.url}/heroes`, { method: 'POST', headers: h, json: { name: 'Encoded Ed' } }); // drops the list
  for (const encoding of [{}, { 'accept-encoding': 'gzip' }] as Record<string, string>[]) {
    const queried = await rawGet(`${replica.url}/heroes`, { ...h, ...encoding });
    const cached = await rawGet(`${replica.url}/heroes`, { ...h, ...encoding });
    t.is(queried.status, 200);
    t.deepEqual(cached, queried);
  }
  t.true(JSON.parse((await rawGet(`${replica.url}/heroes`, h)).body.toString('utf8')).some((hero: HeroBody) => hero.name === 'Encoded Ed'));
});
