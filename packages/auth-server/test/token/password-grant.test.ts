import test from 'ava';
import { addClient, addUser, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic, basicHeader, passwordGrant } from '../_helpers/http.ts';

let s: TestServer;

test.before(async () => {
  s = await startTestServer();
  await addClient(s.db, { id: 'conf', secret: 'conf-secret' });
  await addClient(s.db, { id: 'scoped', secret: 'scoped-secret', allowedScopes: ['heroes:read', 'heroes:write'] });
  await addClient(s.db, { id: 'pub' });
  await addUser(s.db, 'bob@stablekernel.com', 'foobaxx-password');
});
test.after.always(() => s?.close());

test('confidential client gets access and refresh tokens as docs/oauth.md', async (t) => {
  const res = await passwordGrant(s.url, basic('conf', 'conf-secret'), { username: 'bob@stablekernel.com', password: 'foobaxx-password' });
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /^application\/json; charset=utf-8/);
  t.is(res.headers.get('cache-control'), 'no-store');
  t.is(res.headers.get('pragma'), 'no-cache');
  t.is(res.body['token_type'], 'bearer');
  t.true(Number.isInteger(res.body['expires_in']));
  t.true((res.body['expires_in'] as number) > 86_390 && (res.body['expires_in'] as number) <= 86_400);
  t.regex(String(res.body['access_token']), /^[A-Za-z0-9_-]{43,}$/, '>= 32 random bytes, URL-safe');
  t.regex(String(res.body['refresh_token']), /^[A-Za-z0-9_-]{43,}$/);
  t.is(res.body['scope'], 'heroes:read heroes:write', 'a client without allowed scopes is granted the hero scopes, written out');
  t.false('id_token' in res.body);
});

test('public client authenticates with Basic base64(id:) and gets no refresh token', async (t) => {
  const res = await passwordGrant(s.url, basic('pub', ''), { username: 'bob@stablekernel.com', password: 'foobaxx-password' });
  t.is(res.status, 200);
  t.is(res.body['token_type'], 'bearer');
  t.truthy(res.body['access_token']);
  t.false('refresh_token' in res.body);
});

test('public client may also send client_id in the form body', async (t) => {
  const res = await passwordGrant(s.url, undefined, { client_id: 'pub', username: 'bob@stablekernel.com', password: 'foobaxx-password' });
  t.is(res.status, 200);
  t.false('refresh_token' in res.body);
});

test('scoped client gets scope in the response', async (t) => {
  const res = await passwordGrant(s.url, basic('scoped', 'scoped-secret'), { username: 'bob@stablekernel.com', password: 'foobaxx-password', scope: 'heroes:read' });
  t.is(res.status, 200);
  t.is(res.body['scope'], 'heroes:read');
});

test('client_secret_post authentication works too', async (t) => {
  const res = await passwordGrant(s.url, undefined, { client_id: 'conf', client_secret: 'conf-secret', username: 'bob@stablekernel.com', password: 'foobaxx-password' });
  t.is(res.status, 200);
  t.truthy(res.body['refresh_token']);
});

test('Basic credentials are form-urlencoded by real clients (RFC 6749 2.3.1) and decoded', async (t) => {
  const encoded = basicHeader('conf:conf%2Dsecret');
  const res = await passwordGrant(s.url, encoded, { username: 'bob@stablekernel.com', password: 'foobaxx-password' });
  t.is(res.status, 200);
});

test('two grants give different tokens', async (t) => {
  const form = { username: 'bob@stablekernel.com', password: 'foobaxx-password' };
  const a = await passwordGrant(s.url, basic('conf', 'conf-secret'), form);
  const b = await passwordGrant(s.url, basic('conf', 'conf-secret'), form);
  t.not(a.body['access_token'], b.body['access_token']);
});
