import test from 'ava';
import { addClient, addUser, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic, passwordGrant, postForm } from '../_helpers/http.ts';

let s: TestServer;
let userId: number;
const user = { username: 'bob', password: 'hero-password-1' };
const rs = basic('resource-server', 'rs-secret');

test.before(async () => {
  s = await startTestServer();
  await addClient(s.db, { id: 'app', secret: 'app-secret', allowedScopes: ['heroes:read', 'heroes:write'] });
  await addClient(s.db, { id: 'other', secret: 'other-secret' });
  await addClient(s.db, { id: 'pub' });
  await addClient(s.db, { id: 'resource-server', secret: 'rs-secret' });
  userId = await addUser(s.db, 'bob', 'hero-password-1');
});
test.after.always(() => s?.close());

const introspect = (authorization: string | undefined, form: Record<string, string>) =>
  postForm(`${s.url}/auth/introspect`, form, authorization ? { authorization } : {});

test('the resource server introspects any token: active, scope, client_id, username, sub, exp, token_type, grant_id', async (t) => {
  const issued = await passwordGrant(s.url, basic('app', 'app-secret'), { ...user, scope: 'heroes:read' });
  const res = await introspect(rs, { token: String(issued.body['access_token']) });
  t.is(res.status, 200);
  t.is(res.headers.get('cache-control'), 'no-store');
  const body = res.body;
  t.is(body['active'], true);
  t.is(body['scope'], 'heroes:read');
  t.is(body['client_id'], 'app');
  t.is(body['username'], 'bob');
  t.is(body['sub'], String(userId));
  // Resource servers evict a revoked grant's cached tokens by it.
  t.is(await s.db.oidcRecord.count({ where: { model: 'Grant', id: String(body['grant_id']) } }), 1);
  t.true(Number.isInteger(body['exp']));
  t.true(Math.abs((body['exp'] as number) - (Date.now() / 1000 + 86_400)) < 10);
  t.is(String(body['token_type']).toLowerCase(), 'bearer');
  t.false(JSON.stringify(body).includes(String(issued.body['access_token'])), 'the token value is not echoed');
});

test('a client may introspect its own tokens', async (t) => {
  const issued = await passwordGrant(s.url, basic('app', 'app-secret'), user);
  const res = await introspect(basic('app', 'app-secret'), { token: String(issued.body['access_token']) });
  t.is(res.body['active'], true);
});

// RFC 7662 2.1: the endpoint is for authenticated (confidential) clients only.
test('a public client may not introspect, not even its own tokens: 401 invalid_client', async (t) => {
  const issued = await passwordGrant(s.url, basic('pub', ''), user);
  const token = String(issued.body['access_token']);
  const viaBasic = await introspect(basic('pub', ''), { token });
  t.is(viaBasic.status, 401);
  t.is(viaBasic.body['error'], 'invalid_client');
  t.regex(String(viaBasic.body['error_description']), /RFC 7662/);
  t.regex(viaBasic.headers.get('www-authenticate') ?? '', /^Basic realm=.*error="invalid_client"/);
  t.false(viaBasic.text.includes('bob'), 'nothing about the token is revealed');
  const viaBody = await introspect(undefined, { token, client_id: 'pub' });
  t.is(viaBody.status, 401);
  t.is(viaBody.body['error'], 'invalid_client');
  const unknownToken = await introspect(basic('pub', ''), { token: 'x'.repeat(43) });
  t.is(unknownToken.status, 401, 'refused whatever the token');
  const noToken = await introspect(basic('pub', ''), {});
  t.is(noToken.status, 401);
  t.is(noToken.body['error'], 'invalid_client');
  // The token itself is fine: the resource server still sees it.
  t.is((await introspect(rs, { token })).body['active'], true);
});

test('a public client may still revoke its own token (RFC 7009 2.1)', async (t) => {
  const issued = await passwordGrant(s.url, basic('pub', ''), user);
  const token = String(issued.body['access_token']);
  const revoked = await postForm(`${s.url}/auth/revoke`, { token }, { authorization: basic('pub', '') });
  t.is(revoked.status, 200);
  t.is((await introspect(rs, { token })).body['active'], false);
});

test('another client cannot introspect foreign tokens: active false', async (t) => {
  const issued = await passwordGrant(s.url, basic('app', 'app-secret'), user);
  const res = await introspect(basic('other', 'other-secret'), { token: String(issued.body['access_token']) });
  t.is(res.status, 200);
  t.deepEqual(res.body, { active: false });
});

test('refresh tokens are introspectable by the resource server', async (t) => {
  const issued = await passwordGrant(s.url, basic('app', 'app-secret'), user);
  const res = await introspect(rs, { token: String(issued.body['refresh_token']) });
  t.is(res.body['active'], true);
  t.is(res.body['client_id'], 'app');
});

test('unknown token → active false', async (t) => {
  const res = await introspect(rs, { token: 'x'.repeat(43) });
  t.deepEqual(res.body, { active: false });
});

test('introspection needs client authentication', async (t) => {
  const res = await introspect(undefined, { token: 'x' });
  t.is(res.status, 401);
  t.is(res.body['error'], 'invalid_client');
  const wrong = await introspect(basic('resource-server', 'nope'), { token: 'x' });
  t.is(wrong.status, 401);
});

test('the username of a token from the code flow is known too', async (t) => {
  await addClient(s.db, { id: 'web', secret: 'web-secret', redirectUri: 'http://127.0.0.1:9/cb' });
  const res = await postForm(`${s.url}/auth/code`, { client_id: 'web', response_type: 'code', state: 's', username: 'bob', password: 'hero-password-1' });
  const code = new URL(res.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const issued = await postForm(`${s.url}/auth/token`, { grant_type: 'authorization_code', code }, { authorization: basic('web', 'web-secret') });
  const introspected = await introspect(rs, { token: String(issued.body['access_token']) });
  t.is(introspected.body['username'], 'bob');
  t.is(introspected.body['sub'], String(userId));
});
