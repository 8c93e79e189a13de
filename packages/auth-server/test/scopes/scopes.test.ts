import test from 'ava';
import { addClient, addUser, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic, passwordGrant, postForm } from '../_helpers/http.ts';
import { resolveScopes } from '../../src/scopes/resolve-scopes.ts';

let s: TestServer;
const user = { username: 'bob', password: 'hero-password-1' };

test.before(async () => {
  s = await startTestServer();
  await addClient(s.db, { id: 'scoped', secret: 's', allowedScopes: ['heroes:read', 'heroes:write'] });
  await addClient(s.db, { id: 'plain', secret: 's' });
  await addUser(s.db, 'bob', 'hero-password-1');
});
test.after.always(() => s?.close());

test('no scope requested → all allowed scopes', async (t) => {
  const res = await passwordGrant(s.url, basic('scoped', 's'), user);
  t.is(res.status, 200);
  t.is(res.body['scope'], 'heroes:read heroes:write');
});

test('a subset of allowed scopes is granted as requested', async (t) => {
  const res = await passwordGrant(s.url, basic('scoped', 's'), { ...user, scope: 'heroes:write' });
  t.is(res.body['scope'], 'heroes:write');
});

test('any requested scope outside the list → invalid_scope (nothing silently dropped)', async (t) => {
  const res = await passwordGrant(s.url, basic('scoped', 's'), { ...user, scope: 'heroes:read admin' });
  t.is(res.status, 400);
  t.is(res.body['error'], 'invalid_scope');
});

test('a client without allowed scopes is allowed the hero scopes: it may ask for less, never for more', async (t) => {
  const all = await passwordGrant(s.url, basic('plain', 's'), user);
  t.is(all.body['scope'], 'heroes:read heroes:write');
  const less = await passwordGrant(s.url, basic('plain', 's'), { ...user, scope: 'heroes:read' });
  t.is(less.status, 200);
  t.is(less.body['scope'], 'heroes:read');
  const more = await passwordGrant(s.url, basic('plain', 's'), { ...user, scope: 'heroes:read admin' });
  t.is(more.status, 400);
  t.is(more.body['error'], 'invalid_scope');
});

test('a client registered after start may use brand-new scopes, also when refreshing', async (t) => {
  await addClient(s.db, { id: 'late', secret: 's', allowedScopes: ['villains:read', 'villains:write'] });
  const res = await passwordGrant(s.url, basic('late', 's'), user);
  t.is(res.status, 200);
  t.is(res.body['scope'], 'villains:read villains:write');
  const refreshed = await postForm(`${s.url}/auth/token`, {
    grant_type: 'refresh_token',
    refresh_token: String(res.body['refresh_token']),
    scope: 'villains:read',
  }, { authorization: basic('late', 's') });
  t.is(refreshed.status, 200, refreshed.text);
  t.is(refreshed.body['scope'], 'villains:read');
  const introspected = await postForm(`${s.url}/auth/introspect`, { token: String(refreshed.body['access_token']) }, { authorization: basic('late', 's') });
  t.is(introspected.body['scope'], 'villains:read');
});

test('discovery lists the hero scopes while a client without allowed scopes is registered', async (t) => {
  const metadata = (await (await fetch(`${s.url}/.well-known/oauth-authorization-server`)).json()) as { scopes_supported: string[] };
  t.true(metadata.scopes_supported.includes('heroes:read'));
  t.true(metadata.scopes_supported.includes('heroes:write'));
});

test('the catalogue comes from the database: a restarted server lists the scopes of existing clients', async (t) => {
  const other = await startTestServer();
  try {
    await addClient(other.db, { id: 'early', secret: 's', allowedScopes: ['reports:export'] });
    const restarted = await startTestServer({}, other.testDb);
    try {
      const metadata = (await (await fetch(`${restarted.url}/.well-known/openid-configuration`)).json()) as { scopes_supported: string[] };
      t.true(metadata.scopes_supported.includes('reports:export'));
    } finally {
      await restarted.close();
    }
  } finally {
    await other.close();
  }
});

test('resolveScopes rules', (t) => {
  t.deepEqual(resolveScopes(['a', 'b'], undefined), { ok: true, scopes: ['a', 'b'] });
  t.deepEqual(resolveScopes(['a', 'openid'], ''), { ok: true, scopes: ['a'] }, 'openid is never implied');
  t.deepEqual(resolveScopes(['a', 'b'], 'b'), { ok: true, scopes: ['b'] });
  t.deepEqual(resolveScopes(['a'], 'openid'), { ok: true, scopes: ['openid'] }, 'openid from any client, alone');
  t.deepEqual(resolveScopes(['a:b'], 'a:b:c'), { ok: true, scopes: ['a:b:c'] });
  t.false(resolveScopes(['a'], 'a c').ok);
  t.false(resolveScopes(['a'], 'a b').ok);
  t.false(resolveScopes(['a'], 'a\\').ok);
  t.false(resolveScopes(['a'], 'a  a').ok, 'RFC 6749 3.3: single spaces');
});
