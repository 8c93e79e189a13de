import test from 'ava';
import { addClient, addUser, startTestServer, RESOURCE_SERVER_CLIENT, type TestServer } from '../_helpers/fixtures.ts';
import { basic, introspectAsResourceServer, passwordGrant, postForm } from '../_helpers/http.ts';

// As Aqueduct's AuthScope: "user" grants "user:foo"; docs/oauth.md: a parent scope grants its sub-scopes.
let s: TestServer;
const redirectUri = 'http://127.0.0.1:9/cb';
const client = basic('parent', 'p-secret');

test.before(async () => {
  s = await startTestServer();
  await addClient(s.db, { id: 'parent', secret: 'p-secret', redirectUri, allowedScopes: ['heroes', 'foo:bar', 'user.readonly'] });
  await addClient(s.db, RESOURCE_SERVER_CLIENT);
  await addUser(s.db, 'bob', 'bob-password-1');
});
test.after.always(() => s?.close());

test('password grant: an allowed parent scope grants a requested sub-scope, as requested', async (t) => {
  const res = await passwordGrant(s.url, client, { username: 'bob', password: 'bob-password-1', scope: 'heroes:read foo:bar:baz' });
  t.is(res.status, 200, res.text);
  t.is(res.body['scope'], 'heroes:read foo:bar:baz');
  const info = await introspectAsResourceServer(s.url, String(res.body['access_token']));
  t.is(info.body['scope'], 'heroes:read foo:bar:baz');

  const refreshed = await postForm(`${s.url}/auth/token`, { grant_type: 'refresh_token', refresh_token: String(res.body['refresh_token']) }, { authorization: client });
  t.is(refreshed.status, 200, refreshed.text);
  t.is(refreshed.body['scope'], 'heroes:read foo:bar:baz');
});

test('password grant: a parent, sibling or less restricted scope is still refused', async (t) => {
  for (const scope of ['foo', 'foo:baz', 'user', 'user:x', 'heroesx']) {
    const res = await passwordGrant(s.url, client, { username: 'bob', password: 'bob-password-1', scope });
    t.is(res.status, 400, scope);
    t.is(res.body['error'], 'invalid_scope', scope);
  }
});

test('code flow: a sub-scope of an allowed scope is granted and carried to the token', async (t) => {
  const res = await postForm(`${s.url}/auth/code`, { client_id: 'parent', response_type: 'code', state: 's', scope: 'heroes:write', username: 'bob', password: 'bob-password-1' });
  t.is(res.status, 302, res.text);
  const code = new URL(res.headers.get('location') ?? '').searchParams.get('code') ?? '';
  t.not(code, '');
  const token = await postForm(`${s.url}/auth/token`, { grant_type: 'authorization_code', code, redirect_uri: redirectUri }, { authorization: client });
  t.is(token.status, 200, token.text);
  t.is(token.body['scope'], 'heroes:write');
});

test('refresh may narrow to a sub-scope of the refresh token\'s scope, never widen it', async (t) => {
  const issued = await passwordGrant(s.url, client, { username: 'bob', password: 'bob-password-1', scope: 'heroes user.readonly' });
  t.is(issued.status, 200, issued.text);
  // Refresh tokens rotate (RFC 9700 section 4.14.2): each refresh hands the next one on.
  let refreshToken = String(issued.body['refresh_token']);
  const refresh = async (scope?: string) => {
    const res = await postForm(`${s.url}/auth/token`, { grant_type: 'refresh_token', refresh_token: refreshToken, ...(scope ? { scope } : {}) }, { authorization: client });
    if (res.status === 200) refreshToken = String(res.body['refresh_token']);
    return res;
  };
  const introspect = async (token: unknown) =>
    (await introspectAsResourceServer(s.url, String(token))).body;

  const narrowed = await refresh('heroes:read');
  t.is(narrowed.status, 200, narrowed.text);
  t.is(narrowed.body['scope'], 'heroes:read');
  t.is((await introspect(narrowed.body['access_token']))['scope'], 'heroes:read');

  const mixed = await refresh('heroes:write user.readonly');
  t.is(mixed.status, 200, mixed.text);
  t.is(mixed.body['scope'], 'heroes:write user.readonly');
  t.is((await introspect(mixed.body['access_token']))['scope'], 'heroes:write user.readonly');

  for (const scope of ['foo:bar', 'heroes:read foo:bar', 'user', 'user:x', 'heroesx']) {
    const widened = await refresh(scope);
    t.is(widened.status, 400, scope);
    t.is(widened.body['error'], 'invalid_scope', scope);
    t.is(widened.body['access_token'], undefined);
  }

  // The refresh token keeps its whole scope through narrowed refreshes.
  const full = await refresh('heroes');
  t.is(full.status, 200, full.text);
  t.is(full.body['scope'], 'heroes');
  const refreshedAgain = await refresh();
  t.is(refreshedAgain.body['scope'], 'heroes user.readonly');
});

test('a sub-scope refresh with another client\'s refresh token is still invalid_grant', async (t) => {
  await addClient(s.db, { id: 'other-parent', secret: 'o-secret', allowedScopes: ['heroes'] });
  const issued = await passwordGrant(s.url, client, { username: 'bob', password: 'bob-password-1', scope: 'heroes' });
  const res = await postForm(`${s.url}/auth/token`, { grant_type: 'refresh_token', refresh_token: String(issued.body['refresh_token']), scope: 'heroes:read' }, { authorization: basic('other-parent', 'o-secret') });
  t.is(res.status, 400);
  t.is(res.body['error'], 'invalid_grant');
});
