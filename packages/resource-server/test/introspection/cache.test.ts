import test from 'ava';
import pg from 'pg';
import crypto from 'node:crypto';
import { basic, waitFor } from '@heroes/test-kit';
import { CachedIntrospector } from '../../src/auth/cached-introspector.ts';
import type { TokenInfo } from '../../src/auth/token-info.ts';
import { activeToken, startFakeAuthServer, type FakeAuthServer } from '../_helpers/fake-auth-server.ts';
import { bearer, request } from '../_helpers/http.ts';
import { startInProcess, type InProcessServer } from '../_helpers/in-process.ts';

let auth: FakeAuthServer;
let rs: InProcessServer;

test.before(async () => {
  auth = await startFakeAuthServer(basic('resource-server', 'rs-secret'));
  rs = await startInProcess(auth.url, { introspectionNegativeTtlMs: 5_000 });
});
test.after.always(async () => {
  await rs?.close();
  await auth?.close();
});

const get = (token: string) => request(`${rs.url}/heroes`, { headers: bearer(token) });
const calls = (token: string) => auth.callsByToken.get(token) ?? 0;

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
  const token = activeToken({}, 2);
  auth.tokens.set('short-lived', token);
  t.is((await get('short-lived')).status, 200);
  t.is(calls('short-lived'), 1);
  await waitFor(() => Date.now() > (token['exp'] as number) * 1000, { intervalMs: 50 });
  // The fake still answers active:true with the past exp; the guard must not serve it.
  t.is((await get('short-lived')).status, 401);
  t.is(calls('short-lived'), 2);
});

test.serial('a revocation notice of the token\'s grant evicts it: the token dies', async (t) => {
  auth.tokens.set('revoke-me', activeToken());
  t.is((await get('revoke-me')).status, 200);
  auth.tokens.set('revoke-me', { active: false });
  t.is((await get('revoke-me')).status, 200, 'still cached before the notice');
  await notify(JSON.stringify({ grantId: 'g1', tokenHash: 'abc' }));
  t.is(await waitUntilRefused('revoke-me'), 401);
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
  await waitFor(() => !rs.server.introspector.trusted, { intervalMs: 5, message: 'the loss was never noticed' });
  await waitFor(() => rs.server.introspector.trusted, { message: 'the feed never reconnected' });
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

/**
 * A trusted cache whose first call to the authorization server waits until
 * `release()`; `calls()` counts the calls, each answering `answer`.
 */
function cacheWithHeldFirstCall(answer: TokenInfo) {
  let n = 0;
  let release: () => void = () => {};
  const cache = new CachedIntrospector(
    async () => {
      n++;
      if (n === 1) await new Promise<void>((resolve) => (release = resolve));
      return answer;
    },
    { max: 10, ttlMs: 60_000, negativeTtlMs: 0 },
  );
  cache.trusted = true;
  return { cache, calls: () => n, release: () => release() };
}

test('a result that arrives after a clear is not cached', async (t) => {
  const { cache, calls, release } = cacheWithHeldFirstCall({ active: true, scopes: [] });
  const first = cache.lookup('y');
  await Promise.resolve();
  cache.clear();
  release();
  await first;
  await cache.lookup('y');
  t.is(calls(), 2);
});

test('the configured TTL bounds the cache', async (t) => {
  // A TTL long enough that two requests never straddle it, even on a loaded machine.
  const short = await startInProcess(auth.url, { introspectionCacheTtlMs: 3_000 });
  try {
    auth.tokens.set('ttl', activeToken());
    await request(`${short.url}/heroes`, { headers: bearer('ttl') });
    await request(`${short.url}/heroes`, { headers: bearer('ttl') });
    t.is(calls('ttl'), 1);
    // Its expiry is the event: ask until the authorization server is asked again. The default TTL (60 s)
    // would outlast the wait.
    await waitFor(async () => {
      await request(`${short.url}/heroes`, { headers: bearer('ttl') });
      return calls('ttl') > 1;
    }, { intervalMs: 100, message: 'the entry outlived its TTL' });
    t.is(calls('ttl'), 2);
  } finally {
    await short.close();
  }
});

/** Polls `token` until it is no longer served (the notice arrived and evicted it); its status then. */
function waitUntilRefused(token: string): Promise<number> {
  return waitFor(async () => {
    const { status } = await get(token);
    return status === 200 ? undefined : status;
  }, { message: `${token} was never refused` });
}

test.serial('a revocation of grant A evicts A\'s tokens only: grant B\'s entry stays cached (no new introspection)', async (t) => {
  auth.tokens.set('grant-a-1', activeToken({ grant_id: 'grant-a' }));
  auth.tokens.set('grant-a-2', activeToken({ grant_id: 'grant-a' }));
  auth.tokens.set('grant-b', activeToken({ grant_id: 'grant-b' }));
  for (const token of ['grant-a-1', 'grant-a-2', 'grant-b']) t.is((await get(token)).status, 200);
  auth.tokens.set('grant-a-1', { active: false });
  auth.tokens.set('grant-a-2', { active: false });
  auth.tokens.set('grant-b', { active: false }); // would show if B were asked again
  await notify(JSON.stringify({ grantId: 'grant-a' }));
  t.is(await waitUntilRefused('grant-a-1'), 401);
  t.is((await get('grant-a-2')).status, 401, 'every token of the grant');
  t.is((await get('grant-b')).status, 200);
  t.is(calls('grant-b'), 1);
});

test.serial('a revocation of one token (tokenHash) evicts that token only', async (t) => {
  auth.tokens.set('single-1', activeToken({ grant_id: 'grant-s' }));
  auth.tokens.set('single-2', activeToken({ grant_id: 'grant-s' }));
  for (const token of ['single-1', 'single-2']) t.is((await get(token)).status, 200);
  auth.tokens.set('single-1', { active: false });
  auth.tokens.set('single-2', { active: false });
  await notify(JSON.stringify({ tokenHash: crypto.createHash('sha256').update('single-1').digest('hex') }));
  t.is(await waitUntilRefused('single-1'), 401);
  t.is((await get('single-2')).status, 200);
  t.is(calls('single-2'), 1);
});

test('random bearer tokens over HTTP never evict a valid entry (inactive results have a cache of their own)', async (t) => {
  const small = await startInProcess(auth.url, { introspectionCacheMax: 20, introspectionNegativeCacheMax: 5 });
  try {
    auth.tokens.set('valid-among-noise', activeToken());
    t.is((await request(`${small.url}/heroes`, { headers: bearer('valid-among-noise') })).status, 200);
    for (let round = 0; round < 30; round++) {
      const answers = await Promise.all(Array.from({ length: 10 }, () =>
        request(`${small.url}/heroes`, { headers: bearer(crypto.randomBytes(16).toString('base64url')) })));
      t.true(answers.every((res) => res.status === 401));
    }
    t.is((await request(`${small.url}/heroes`, { headers: bearer('valid-among-noise') })).status, 200);
    t.is(calls('valid-among-noise'), 1);
  } finally {
    await small.close();
  }
});

test('10,000 random tokens never evict a valid entry; the inactive cache stays within its bound', async (t) => {
  const asked = new Map<string, number>();
  const cache = new CachedIntrospector(
    async (token): Promise<TokenInfo> => {
      asked.set(token, (asked.get(token) ?? 0) + 1);
      return token === 'valid' ? { active: true, scopes: [], grantId: 'g' } : { active: false, scopes: [] };
    },
    { max: 100, negativeMax: 10, ttlMs: 60_000, negativeTtlMs: 60_000 },
  );
  cache.trusted = true;
  await cache.lookup('valid');
  for (let i = 0; i < 10_000; i++) await cache.lookup(crypto.randomBytes(16).toString('base64url'));
  t.true((await cache.lookup('valid')).active);
  t.is(asked.get('valid'), 1);
  t.is(cache.size, 1, 'only the valid entry is in the active cache');
});

test('grant and token notices evict only what they name; a client notice or an unreadable one clears everything', async (t) => {
  const asked = new Map<string, number>();
  const grants: Record<string, string | undefined> = { a1: 'a', a2: 'a', b: 'b', old: undefined };
  const cache = new CachedIntrospector(
    async (token): Promise<TokenInfo> => {
      asked.set(token, (asked.get(token) ?? 0) + 1);
      const grantId = grants[token];
      return { active: true, scopes: [], ...(grantId ? { grantId } : {}) };
    },
    { max: 100, ttlMs: 60_000, negativeTtlMs: 0 },
  );
  cache.trusted = true;
  const lookAll = async () => { for (const token of Object.keys(grants)) await cache.lookup(token); };
  const count = (token: string) => asked.get(token) ?? 0;
  await lookAll();
  cache.revoked({ grantId: 'a' });
  await lookAll();
  // Grant a's tokens and the one that came without a grant (it could be a's) were asked again; b was not.
  t.deepEqual([count('a1'), count('a2'), count('b'), count('old')], [2, 2, 1, 2]);
  cache.revoked({ tokenHash: crypto.createHash('sha256').update('b').digest('hex') });
  await lookAll();
  t.deepEqual([count('a1'), count('a2'), count('b'), count('old')], [2, 2, 2, 2]);
  cache.revoked({ clientId: 'some-client' });
  t.is(cache.size, 0);
  await lookAll();
  cache.revoked(undefined);
  t.is(cache.size, 0);
});

test('a result in flight when a grant notice arrives is not cached (it may predate the revocation)', async (t) => {
  const { cache, calls, release } = cacheWithHeldFirstCall({ active: true, scopes: [], grantId: 'g' });
  const first = cache.lookup('z');
  await Promise.resolve();
  cache.revoked({ grantId: 'g' });
  const second = cache.lookup('z');
  release();
  await Promise.all([first, second]);
  await cache.lookup('z');
  t.is(calls(), 2, 'the lookup after the notice started a call of its own, whose result is cached');
});
