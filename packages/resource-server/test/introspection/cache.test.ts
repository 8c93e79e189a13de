import test from 'ava';
import pg from 'pg';
import { CachedIntrospector } from '../../src/auth/cached-introspector.ts';
import { activeToken, startFakeAuthServer, type FakeAuthServer } from '../_helpers/fake-auth-server.ts';
import { bearer, request } from '../_helpers/http.ts';
import { startInProcess, type InProcessServer } from '../_helpers/in-process.ts';

let auth: FakeAuthServer;
let rs: InProcessServer;

test.before(async () => {
  auth = await startFakeAuthServer(`Basic ${Buffer.from('resource-server:rs-secret').toString('base64')}`);
  rs = await startInProcess(auth.url, { introspectionNegativeTtlMs: 5_000 });
});
test.after.always(async () => {
  await rs?.close();
  await auth?.close();
});

const get = (token: string) => request(`${rs.url}/heroes`, { headers: bearer(token) });
const calls = (token: string) => auth.callsByToken.get(token) ?? 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function notify(payload: string): Promise<void> {
  const client = new pg.Client({ connectionString: rs.database.url });
  await client.connect();
  await client.query('SELECT pg_notify($1, $2)', ['heroes_tokens_revoked', payload]);
  await client.end();
}

test.serial('a cache hit does not call the authorization server', async (t) => {
  auth.tokens.set('cached', activeToken());
  t.is((await get('cached')).status, 200);
  t.is((await get('cached')).status, 200);
  t.is((await get('cached')).status, 200);
  t.is(calls('cached'), 1);
});

test.serial('concurrent first requests share one introspection call', async (t) => {
  auth.tokens.set('burst', activeToken());
  auth.delayMs = 100;
  const results = await Promise.all(Array.from({ length: 20 }, () => get('burst')));
  auth.delayMs = 0;
  t.true(results.every((res) => res.status === 200));
  t.is(calls('burst'), 1);
});

test.serial('inactive results are cached briefly too', async (t) => {
  t.is((await get('garbage')).status, 401);
  t.is((await get('garbage')).status, 401);
  t.is(calls('garbage'), 1);
});

test.serial('a token never outlives its exp in the cache', async (t) => {
  auth.tokens.set('short-lived', activeToken({}, 2));
  t.is((await get('short-lived')).status, 200);
  t.is(calls('short-lived'), 1);
  await sleep(2_100);
  // The fake still answers active:true with the past exp; the guard must not serve it.
  t.is((await get('short-lived')).status, 401);
  t.is(calls('short-lived'), 2);
});

test.serial('a revocation notice empties the cache: the token dies within 1 s', async (t) => {
  auth.tokens.set('revoke-me', activeToken());
  t.is((await get('revoke-me')).status, 200);
  auth.tokens.set('revoke-me', { active: false });
  t.is((await get('revoke-me')).status, 200, 'still cached before the notice');
  await notify(JSON.stringify({ grantId: 'g1', tokenHash: 'abc' }));
  const deadline = Date.now() + 1_000;
  let status = 200;
  while (Date.now() < deadline && status === 200) {
    status = (await get('revoke-me')).status;
    if (status === 200) await sleep(20);
  }
  t.is(status, 401);
});

test.serial('when the revocation feed drops, the cache is bypassed until it is back (then cleared)', async (t) => {
  auth.tokens.set('feed', activeToken());
  await get('feed');
  t.is(calls('feed'), 1);
  const admin = new pg.Client({ connectionString: rs.database.url });
  await admin.connect();
  await admin.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'resource-server-revocations' AND datname = current_database()`,
  );
  await admin.end();
  const deadline = Date.now() + 5_000;
  while (rs.server.introspector.trusted && Date.now() < deadline) await sleep(5);
  t.false(rs.server.introspector.trusted, 'the loss was noticed');
  while (!rs.server.introspector.trusted && Date.now() < deadline) await sleep(20);
  t.true(rs.server.introspector.trusted, 'the feed reconnected');
  await get('feed');
  t.is(calls('feed'), 2, 'the cache was cleared on reconnect');
});

test('an untrusted cache calls the authorization server every time', async (t) => {
  let n = 0;
  const cache = new CachedIntrospector(
    async () => {
      n++;
      return { active: true, scopes: [] };
    },
    { max: 10, ttlMs: 60_000, negativeTtlMs: 0 },
  );
  await cache.lookup('x');
  await cache.lookup('x');
  t.is(n, 2);
  cache.trusted = true;
  await cache.lookup('x');
  await cache.lookup('x');
  t.is(n, 3);
});

test('a result that arrives after a clear is not cached', async (t) => {
  let n = 0;
  let release: () => void = () => {};
  const cache = new CachedIntrospector(
    async () => {
      n++;
      if (n === 1) await new Promise<void>((resolve) => (release = resolve));
      return { active: true, scopes: [] };
    },
    { max: 10, ttlMs: 60_000, negativeTtlMs: 0 },
  );
  cache.trusted = true;
  const first = cache.lookup('y');
  await Promise.resolve();
  cache.clear();
  release();
  await first;
  await cache.lookup('y');
  t.is(n, 2);
});

test('the configured TTL bounds the cache', async (t) => {
  // A TTL long enough that two requests never straddle it, even on a loaded machine.
  const short = await startInProcess(auth.url, { introspectionCacheTtlMs: 3_000 });
  try {
    auth.tokens.set('ttl', activeToken());
    await request(`${short.url}/heroes`, { headers: bearer('ttl') });
    await request(`${short.url}/heroes`, { headers: bearer('ttl') });
    t.is(calls('ttl'), 1);
    await sleep(3_200);
    await request(`${short.url}/heroes`, { headers: bearer('ttl') });
    t.is(calls('ttl'), 2);
  } finally {
    await short.close();
  }
});
