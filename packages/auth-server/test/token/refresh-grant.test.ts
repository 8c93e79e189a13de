import test from 'ava';
import { addClient, addUser, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic, passwordGrant, postForm } from '../_helpers/http.ts';

let s: TestServer;
const user = { username: 'bob', password: 'pw' };

test.before(async () => {
  s = await startTestServer();
  await addClient(s.db, { id: 'conf', secret: 'conf-secret', allowedScopes: ['heroes:read', 'heroes:write'] });
  await addClient(s.db, { id: 'other', secret: 'other-secret' });
  await addClient(s.db, { id: 'pub' });
  await addUser(s.db, 'bob', 'pw');
});
test.after.always(() => s?.close());

const refresh = (authorization: string, form: Record<string, string>) =>
  postForm(`${s.url}/auth/token`, { grant_type: 'refresh_token', ...form }, { authorization });

test('refresh grant gives a new access token with the same lifetime and scope', async (t) => {
  const first = await passwordGrant(s.url, basic('conf', 'conf-secret'), user);
  const res = await refresh(basic('conf', 'conf-secret'), { refresh_token: String(first.body['refresh_token']) });
  t.is(res.status, 200, res.text);
  t.is(res.body['token_type'], 'bearer');
  t.not(res.body['access_token'], first.body['access_token']);
  t.is(res.body['refresh_token'], first.body['refresh_token'], 'the refresh token is kept (Aqueduct)');
  t.is(res.body['scope'], 'heroes:read heroes:write');
  t.true((res.body['expires_in'] as number) > 86_000, 'password-grant lifetime kept');
  t.is(res.headers.get('cache-control'), 'no-store');
  t.is(res.headers.get('pragma'), 'no-cache');
});

test('refresh may narrow the scope, never widen it', async (t) => {
  const first = await passwordGrant(s.url, basic('conf', 'conf-secret'), { ...user, scope: 'heroes:read' });
  const narrowed = await refresh(basic('conf', 'conf-secret'), { refresh_token: String(first.body['refresh_token']), scope: 'heroes:read' });
  t.is(narrowed.body['scope'], 'heroes:read');
  const widened = await refresh(basic('conf', 'conf-secret'), { refresh_token: String(first.body['refresh_token']), scope: 'heroes:write' });
  t.is(widened.status, 400);
  t.is(widened.body['error'], 'invalid_scope');
});

test('a refresh token is bound to its client: another client → invalid_grant', async (t) => {
  const first = await passwordGrant(s.url, basic('conf', 'conf-secret'), user);
  const res = await refresh(basic('other', 'other-secret'), { refresh_token: String(first.body['refresh_token']) });
  t.is(res.status, 400);
  t.is(res.body['error'], 'invalid_grant');
});

test('refresh needs the client secret', async (t) => {
  const first = await passwordGrant(s.url, basic('conf', 'conf-secret'), user);
  const res = await refresh(basic('conf', 'wrong'), { refresh_token: String(first.body['refresh_token']) });
  t.is(res.status, 401);
  t.is(res.body['error'], 'invalid_client');
});

test('a public client gets no refresh token and cannot use the refresh grant', async (t) => {
  const first = await passwordGrant(s.url, basic('pub', ''), user);
  t.false('refresh_token' in first.body);
  const res = await refresh(basic('pub', ''), { refresh_token: 'anything-at-all-000000000000000000000000000' });
  t.is(res.status, 400);
  t.not(res.body['error'], undefined);
});

test('unknown refresh token → invalid_grant; missing → invalid_request', async (t) => {
  const unknown = await refresh(basic('conf', 'conf-secret'), { refresh_token: 'x'.repeat(43) });
  t.is(unknown.body['error'], 'invalid_grant');
  const missing = await refresh(basic('conf', 'conf-secret'), {});
  t.is(missing.body['error'], 'invalid_request');
});
