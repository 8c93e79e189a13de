/**
 * Write limits (docs/heroes-api.md): hero creates and updates per user per
 * window, counted in PostgreSQL (two edges on one database share the
 * count), 429 with Retry-After and the draft RateLimit fields beyond it;
 * another user, and reads, are not limited by it.
 */
import test from 'ava';
import { activeToken, startFakeAuthServer, type FakeAuthServer } from '../_helpers/fake-auth-server.ts';
import { bearer, request } from '../_helpers/http.ts';
import { startInProcess, type InProcessServer } from '../_helpers/in-process.ts';

const LIMIT = 4;
let auth: FakeAuthServer;
let first: InProcessServer;
let second: InProcessServer;

test.before(async () => {
  auth = await startFakeAuthServer();
  auth.tokens.set('writer-a', activeToken({ sub: '101' }));
  auth.tokens.set('writer-a-again', activeToken({ sub: '101' }));
  auth.tokens.set('writer-b', activeToken({ sub: '102' }));
  auth.tokens.set('client-only', activeToken({ sub: undefined, username: undefined, client_id: 'machine' }));
  const limits = { heroWriteLimit: LIMIT, heroWriteWindowMs: 600_000 };
  first = await startInProcess(auth.url, limits);
  second = await startInProcess(auth.url, limits, first.database);
});
test.after.always(async () => {
  await second?.close();
  await first?.close();
  await auth?.close();
});

test('creates and updates past HERO_WRITE_LIMIT → 429 with Retry-After and RateLimit fields, counted across replicas and tokens of one user', async (t) => {
  const answers = [];
  // Alternate replicas and two tokens of one user: one count.
  for (let i = 0; i < LIMIT; i++) {
    const server = i % 2 === 0 ? first : second;
    const token = i % 2 === 0 ? 'writer-a' : 'writer-a-again';
    answers.push(await request(`${server.url}/heroes`, { method: 'POST', headers: bearer(token), json: { name: `Limited ${i}` } }));
  }
  t.deepEqual(answers.map((res) => res.status), [200, 200, 200, 200]);
  t.is(answers[0]!.headers.get('ratelimit-policy'), '"hero-writes";q=4;w=600');
  t.regex(answers[0]!.headers.get('ratelimit') ?? '', /^"hero-writes";r=3;t=\d+$/);
  t.regex(answers[3]!.headers.get('ratelimit') ?? '', /^"hero-writes";r=0;t=\d+$/);

  const id = (answers[0]!.body as { id: number }).id;
  const update = await request(`${second.url}/heroes/${id}`, { method: 'PUT', headers: bearer('writer-a'), json: { name: 'Renamed' } });
  t.is(update.status, 429);
  t.deepEqual(update.body, { error: 'too many hero writes' });
  const retryAfter = Number(update.headers.get('retry-after'));
  t.true(retryAfter >= 1 && retryAfter <= 600);
  t.is(update.headers.get('ratelimit-policy'), '"hero-writes";q=4;w=600');
  t.regex(update.headers.get('ratelimit') ?? '', /^"hero-writes";r=0;t=\d+$/);
  const create = await request(`${first.url}/heroes`, { method: 'POST', headers: bearer('writer-a'), json: { name: 'One too many' } });
  t.is(create.status, 429);
  const collection = await request(`${first.url}/heroes`, { method: 'PUT', headers: bearer('writer-a'), json: { id, name: 'Renamed' } });
  t.is(collection.status, 429);

  // Reads are not writes; another user has a count of their own.
  t.is((await request(`${first.url}/heroes/${id}`, { headers: bearer('writer-a') })).status, 200);
  t.is((await request(`${first.url}/heroes`, { method: 'POST', headers: bearer('writer-b'), json: { name: 'Other writer' } })).status, 200);
  const names = ((await request(`${first.url}/heroes?name=Limited`, { headers: bearer('writer-b') })).body as Array<{ name: string }>).map((hero) => hero.name);
  t.deepEqual(names, ['Limited 0', 'Limited 1', 'Limited 2', 'Limited 3'], 'nothing written past the limit');
});

test('a token without a user is counted for its client', async (t) => {
  const statuses = [];
  for (let i = 0; i <= LIMIT; i++) {
    statuses.push((await request(`${first.url}/heroes`, { method: 'POST', headers: bearer('client-only'), json: { name: `Machine ${i}` } })).status);
  }
  t.deepEqual(statuses, [200, 200, 200, 200, 429]);
});
