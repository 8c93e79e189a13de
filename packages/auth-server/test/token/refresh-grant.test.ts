import test from 'ava';
import { hashToken } from '../../src/index.ts';
import { addClients, addUser, startTestServer, RESOURCE_SERVER_CLIENT, type TestServer } from '../_helpers/fixtures.ts';
import { basic, introspectAsResourceServer, passwordGrant, postForm } from '../_helpers/http.ts';
import { revocationNotices } from '../_helpers/listen.ts';
import { pkcePair } from '../_helpers/pkce.ts';

let s: TestServer;
const user = { username: 'bob', password: 'hero-password-1' };

test.before(async () => {
  s = await startTestServer();
  await addClients(s.db, [
    { id: 'conf', secret: 'conf-secret', allowedScopes: ['heroes:read', 'heroes:write'] },
    { id: 'other', secret: 'other-secret' },
    { id: 'pub' },
    { id: 'web', secret: 'web-secret', redirectUri: 'http://127.0.0.1:9/cb' },
    RESOURCE_SERVER_CLIENT,
  ]);
  await addUser(s.db, 'bob', 'hero-password-1');
});
test.after.always(() => s?.close());

const introspect = async (token: unknown) =>
  (await introspectAsResourceServer(s.url, String(token))).body;

const refresh = (authorization: string, form: Record<string, string>) =>
  postForm(`${s.url}/auth/token`, { grant_type: 'refresh_token', ...form }, { authorization });

test('refresh grant gives a new access token with the same lifetime and scope', async (t) => {
  const first = await passwordGrant(s.url, basic('conf', 'conf-secret'), user);
  const res = await refresh(basic('conf', 'conf-secret'), { refresh_token: String(first.body['refresh_token']) });
  t.is(res.status, 200, res.text);
  t.is(res.body['token_type'], 'bearer');
  t.not(res.body['access_token'], first.body['access_token']);
  t.not(res.body['refresh_token'], first.body['refresh_token'], 'the refresh token is rotated (RFC 9700 section 4.14.2)');
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
  t.is(res.body['error'], 'unauthorized_client', 'RFC 6749 5.2: the grant type is not the client\'s');
});

test('unknown refresh token → invalid_grant; missing → invalid_request', async (t) => {
  const unknown = await refresh(basic('conf', 'conf-secret'), { refresh_token: 'x'.repeat(43) });
  t.is(unknown.body['error'], 'invalid_grant');
  const missing = await refresh(basic('conf', 'conf-secret'), {});
  t.is(missing.body['error'], 'invalid_request');
});

// As Aqueduct's AuthServer: on refresh the old access token is overwritten and stops working.
test('after a refresh the old access token is inactive, the new one active, and resource servers are told', async (t) => {
  const listener = await revocationNotices(t, s.testDb.url);
  const first = await passwordGrant(s.url, basic('conf', 'conf-secret'), user);
  const old = String(first.body['access_token']);
  t.true((await introspect(old))['active'] as boolean);
  const res = await refresh(basic('conf', 'conf-secret'), { refresh_token: String(first.body['refresh_token']) });
  t.is(res.status, 200, res.text);
  t.deepEqual(await introspect(old), { active: false });
  t.true((await introspect(res.body['access_token']))['active'] as boolean);
  await listener.waitFor((p) => p['tokenHash'] === hashToken(old));
  t.false(listener.payloads.some((p) => JSON.stringify(p).includes(hashToken(String(res.body['access_token'])))), 'the new token is not announced dead');

  const again = await refresh(basic('conf', 'conf-secret'), { refresh_token: String(res.body['refresh_token']) });
  t.deepEqual(await introspect(res.body['access_token']), { active: false }, 'each refresh replaces the previous one');
  t.true((await introspect(again.body['access_token']))['active'] as boolean);
});

test('a refresh replaces only the tokens of its own grant', async (t) => {
  const mine = await passwordGrant(s.url, basic('conf', 'conf-secret'), user);
  const other = await passwordGrant(s.url, basic('conf', 'conf-secret'), user);
  t.is((await refresh(basic('conf', 'conf-secret'), { refresh_token: String(mine.body['refresh_token']) })).status, 200);
  t.true((await introspect(other.body['access_token']))['active'] as boolean);
});

test('a failed refresh revokes nothing', async (t) => {
  const first = await passwordGrant(s.url, basic('conf', 'conf-secret'), user);
  const res = await refresh(basic('conf', 'conf-secret'), { refresh_token: String(first.body['refresh_token']), scope: 'not-allowed' });
  t.is(res.status, 400);
  t.true((await introspect(first.body['access_token']))['active'] as boolean);
});

test('refreshing a code-flow grant also replaces its access token', async (t) => {
  const { verifier, challenge } = pkcePair();
  const redirectUri = 'http://127.0.0.1:9/cb';
  const authorized = await postForm(`${s.url}/auth/code`, {
    client_id: 'web', redirect_uri: redirectUri, response_type: 'code', state: 's', username: 'bob', password: 'hero-password-1',
    code_challenge: challenge, code_challenge_method: 'S256',
  });
  const code = new URL(authorized.headers.get('location') ?? 'about:blank').searchParams.get('code') ?? '';
  const web = basic('web', 'web-secret');
  const exchanged = await postForm(`${s.url}/auth/token`, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier }, { authorization: web });
  t.is(exchanged.status, 200, exchanged.text);
  const res = await refresh(web, { refresh_token: String(exchanged.body['refresh_token']) });
  t.is(res.status, 200, res.text);
  t.deepEqual(await introspect(exchanged.body['access_token']), { active: false });
  t.true((await introspect(res.body['access_token']))['active'] as boolean);
});
