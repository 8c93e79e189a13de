import test from 'ava';
import bcrypt from 'bcrypt';
import { hashClientSecret } from '../../src/clients/client-secret.ts';
import { createSecretVerifier } from '../../src/clients/secret-cache.ts';
import { addClient, addUser, startTestServer } from '../_helpers/fixtures.ts';
import { basic, passwordGrant, postForm } from '../_helpers/http.ts';

function countingVerifier() {
  let calls = 0;
  const verify = createSecretVerifier({
    max: 100,
    ttlMs: 60_000,
    compare: async (secret, hash) => {
      calls += 1;
      return bcrypt.compare(secret, hash);
    },
  });
  return { verify, calls: () => calls };
}

test('a successful verification is remembered: one slow compare for many requests', async (t) => {
  const hash = await bcrypt.hash('s3cret', 4);
  const { verify, calls } = countingVerifier();
  for (let i = 0; i < 20; i += 1) t.true(await verify('app', hash, 's3cret'));
  t.is(calls(), 1);
});

test('failures are never cached', async (t) => {
  const hash = await bcrypt.hash('s3cret', 4);
  const { verify, calls } = countingVerifier();
  t.false(await verify('app', hash, 'wrong'));
  t.false(await verify('app', hash, 'wrong'));
  t.is(calls(), 2);
});

test('a changed stored hash invalidates the remembered verification', async (t) => {
  const { verify, calls } = countingVerifier();
  const before = await bcrypt.hash('s3cret', 4);
  t.true(await verify('app', before, 's3cret'));
  const rotated = await bcrypt.hash('n3w', 4);
  t.false(await verify('app', rotated, 's3cret'), 'old secret no longer accepted after rotation');
  t.true(await verify('app', rotated, 'n3w'));
  t.is(calls(), 3);
});

test('the key includes the client id; empty secret or no hash never match', async (t) => {
  const hash = await bcrypt.hash('s3cret', 4);
  const { verify, calls } = countingVerifier();
  t.true(await verify('a', hash, 's3cret'));
  t.true(await verify('b', hash, 's3cret'));
  t.is(calls(), 2);
  t.false(await verify('a', hash, ''));
  t.false(await verify('a', undefined, 's3cret'));
  t.false(await verify('a', 'not-a-bcrypt-hash', 's3cret'));
});

test('concurrent verifications of the same pair share one slow compare', async (t) => {
  const hash = await bcrypt.hash('s3cret', 4);
  const { verify, calls } = countingVerifier();
  const results = await Promise.all(Array.from({ length: 10 }, () => verify('app', hash, 's3cret')));
  t.deepEqual(results, Array(10).fill(true));
  t.is(calls(), 1, 'a burst before the first verification finishes costs one compare');
  t.true(await verify('app', hash, 's3cret'));
  t.is(calls(), 1);
  const wrong = await Promise.all([verify('app', hash, 'a'), verify('app', hash, 'b')]);
  t.deepEqual(wrong, [false, false]);
  t.is(calls(), 3, 'different secrets are compared separately');
});

test('a secret outside VSCHAR (RFC 6749 A.2) never matches and costs no slow compare', async (t) => {
  const secret = 's\u00e9cret';
  const hash = await bcrypt.hash(secret, 4);
  const { verify, calls } = countingVerifier();
  t.false(await verify('legacy', hash, secret));
  t.false(await verify('legacy', await bcrypt.hash('tab\there', 4), 'tab\there'));
  t.is(calls(), 0);
});

test('the default verifier compares registry hashes; a rotated hash misses the cache', async (t) => {
  const hashedSecret = await hashClientSecret('s3cret', 4);
  const verify = createSecretVerifier();
  t.true(await verify('web', hashedSecret, 's3cret'));
  t.true(await verify('web', hashedSecret, 's3cret'));
  t.false(await verify('web', hashedSecret, 'nope'));
  t.false(await verify('web', await hashClientSecret('rotated', 4), 's3cret'), 'a new hash misses the cache');
  t.false(await verify('pub', null, ''));
  t.false(await verify('pub', null, 's3cret'));
});

test('rotating a client secret in the table takes effect at once', async (t) => {
  const s = await startTestServer();
  try {
    await addClient(s.db, { id: 'app', secret: 'old' });
    await addUser(s.db, 'bob', 'hero-password-1');
    t.is((await passwordGrant(s.url, basic('app', 'old'), { username: 'bob', password: 'hero-password-1' })).status, 200);
    await s.db.oAuthClient.update({ where: { id: 'app' }, data: { hashedSecret: await bcrypt.hash('new', 4) } });
    t.is((await passwordGrant(s.url, basic('app', 'old'), { username: 'bob', password: 'hero-password-1' })).status, 401);
    t.is((await passwordGrant(s.url, basic('app', 'new'), { username: 'bob', password: 'hero-password-1' })).status, 200);
  } finally {
    await s.close();
  }
});

test('introspection stays cheap: after the first call the resource server\'s secret is never compared again', async (t) => {
  const s = await startTestServer();
  // Every client-secret compare waits in the hash queue at low priority (a password at high): count those.
  let secretCompares = 0;
  const run = s.server.hashQueue.run.bind(s.server.hashQueue);
  s.server.hashQueue.run = (task, options) => {
    if (options?.priority === 'low') secretCompares += 1;
    return run(task, options);
  };
  try {
    await s.db.oAuthClient.create({ data: { id: 'resource-server', hashedSecret: await bcrypt.hash('rs', 4), allowedScopes: [] } });
    await addClient(s.db, { id: 'app', secret: 'x' });
    await addUser(s.db, 'bob', 'hero-password-1');
    const token = String((await passwordGrant(s.url, basic('app', 'x'), { username: 'bob', password: 'hero-password-1' })).body['access_token']);
    const introspect = () => postForm(`${s.url}/auth/introspect`, { token }, { authorization: basic('resource-server', 'rs') });
    const before = secretCompares;
    t.is((await introspect()).body['active'], true, 'the first call verifies the secret');
    t.is(secretCompares - before, 1);
    for (let i = 0; i < 30; i += 1) t.is((await introspect()).body['active'], true);
    t.is(secretCompares - before, 1, 'no compare after the first');
  } finally {
    await s.close();
  }
});
