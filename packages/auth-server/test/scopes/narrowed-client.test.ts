/**
 * A client narrowed with `auth set-scopes` (here: its row updated) gets
 * only what it may still be granted from its next token on, whatever the
 * grant; the answer's `scope` and introspection name the same values.
 */
import test from 'ava';
import { addClient, addUser, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic, passwordGrant, postForm } from '../_helpers/http.ts';

let s: TestServer;
const redirectUri = 'http://127.0.0.1:9/cb';
const user = { username: 'bob', password: 'bob-password-1' };

test.before(async () => {
  s = await startTestServer();
  await addClient(s.db, { id: 'resource-server', secret: 'rs-secret' });
  await addUser(s.db, 'bob', 'bob-password-1');
});
test.after.always(() => s?.close());

async function narrowedClient(id: string, before: string[], after: string[]): Promise<{ auth: string; narrow: () => Promise<void> }> {
  await addClient(s.db, { id, secret: `${id}-secret`, redirectUri, allowedScopes: before });
  return { auth: basic(id, `${id}-secret`), narrow: async () => { await s.db.oAuthClient.update({ where: { id }, data: { allowedScopes: after } }); } };
}

async function introspectedScope(token: unknown): Promise<unknown> {
  const res = await postForm(`${s.url}/auth/introspect`, { token: String(token) }, { authorization: basic('resource-server', 'rs-secret') });
  return res.body['scope'];
}

const refresh = (auth: string, refreshToken: unknown, scope?: string) =>
  postForm(`${s.url}/auth/token`, { grant_type: 'refresh_token', refresh_token: String(refreshToken), ...(scope ? { scope } : {}) }, { authorization: auth });

test('refresh after narrowing: the values the client may no longer be granted are dropped', async (t) => {
  const { auth, narrow } = await narrowedClient('shrinks', ['heroes:read', 'heroes:write'], ['heroes:read']);
  const issued = await passwordGrant(s.url, auth, user);
  t.is(issued.body['scope'], 'heroes:read heroes:write');
  await narrow();
  const refreshed = await refresh(auth, issued.body['refresh_token']);
  t.is(refreshed.status, 200, refreshed.text);
  t.is(refreshed.body['scope'], 'heroes:read');
  t.is(await introspectedScope(refreshed.body['access_token']), 'heroes:read');
});

test('a refresh narrowed to a sub-scope by the request also drops what the client lost', async (t) => {
  const { auth, narrow } = await narrowedClient('shrinks-sub', ['heroes', 'user.readonly'], ['heroes:read']);
  const issued = await passwordGrant(s.url, auth, user);
  await narrow();
  const refreshed = await refresh(auth, issued.body['refresh_token'], 'heroes:read user.readonly');
  t.is(refreshed.status, 200, refreshed.text);
  t.is(refreshed.body['scope'], 'heroes:read');
  t.is(await introspectedScope(refreshed.body['access_token']), 'heroes:read');
});

test('a code minted before narrowing is exchanged for the narrowed scope', async (t) => {
  const { auth, narrow } = await narrowedClient('shrinks-code', ['heroes:read', 'heroes:write'], ['heroes:write']);
  const authorized = await postForm(`${s.url}/auth/code`, { client_id: 'shrinks-code', response_type: 'code', state: 's', ...user });
  const code = new URL(authorized.headers.get('location') ?? 'about:blank').searchParams.get('code') ?? '';
  t.not(code, '', authorized.text);
  await narrow();
  const token = await postForm(`${s.url}/auth/token`, { grant_type: 'authorization_code', code, redirect_uri: redirectUri }, { authorization: auth });
  t.is(token.status, 200, token.text);
  t.is(token.body['scope'], 'heroes:write');
  t.is(await introspectedScope(token.body['access_token']), 'heroes:write');
});

test('nothing left to grant → invalid_scope, no token', async (t) => {
  const { auth, narrow } = await narrowedClient('shrinks-away', ['heroes:read'], ['user.readonly']);
  const issued = await passwordGrant(s.url, auth, user);
  await narrow();
  const refreshed = await refresh(auth, issued.body['refresh_token']);
  t.is(refreshed.status, 400, refreshed.text);
  t.is(refreshed.body['error'], 'invalid_scope');
  t.is(refreshed.body['access_token'], undefined);
});
