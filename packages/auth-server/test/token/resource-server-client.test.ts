import test from 'ava';
import { addClient, addUser, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic, passwordGrant, postForm } from '../_helpers/http.ts';

// The resource server's own client (RESOURCE_SERVER_CLIENT_ID) exists only to introspect.
let s: TestServer;
const redirectUri = 'http://127.0.0.1:9/cb';
const rs = basic('rs-client', 'rs-secret');
const user = { username: 'bob', password: 'hero-password-1' };

test.before(async () => {
  s = await startTestServer({ resourceServerClientId: 'rs-client' });
  // Registered with a redirect URI and scopes: still introspection-only.
  await addClient(s.db, { id: 'rs-client', secret: 'rs-secret', redirectUri, allowedScopes: ['heroes'] });
  await addClient(s.db, { id: 'app', secret: 'app-secret', redirectUri });
  await addUser(s.db, 'bob', 'hero-password-1');
});
test.after.always(() => s?.close());

test('every grant at /auth/token for the resource server client → 400 unauthorized_client (RFC 6749 5.2)', async (t) => {
  const app = await passwordGrant(s.url, basic('app', 'app-secret'), user);
  const forms: Record<string, string>[] = [
    { grant_type: 'password', ...user },
    { grant_type: 'password', ...user, scope: 'heroes' },
    { grant_type: 'refresh_token', refresh_token: String(app.body['refresh_token']) },
    { grant_type: 'authorization_code', code: 'x'.repeat(43), redirect_uri: redirectUri },
  ];
  for (const form of forms) {
    const res = await postForm(`${s.url}/auth/token`, form, { authorization: rs });
    t.is(res.status, 400, form['grant_type']);
    t.is(res.body['error'], 'unauthorized_client', form['grant_type']);
    t.is(res.body['access_token'], undefined);
  }
  const viaBody = await postForm(`${s.url}/auth/token`, { grant_type: 'password', ...user, client_id: 'rs-client', client_secret: 'rs-secret' });
  t.is(viaBody.body['error'], 'unauthorized_client');
});

test('a wrong secret for the resource server client is still invalid_client (authentication first)', async (t) => {
  const res = await passwordGrant(s.url, basic('rs-client', 'nope'), user);
  t.is(res.status, 401);
  t.is(res.body['error'], 'invalid_client');
});

test('whether the resource server client may use a grant is never told without its secret', async (t) => {
  // An unsigned client attestation naming the client makes the library refuse with 400 invalid_request
  // after finding the client and before any secret was compared: that answer must stay as it is.
  const unsigned = (claims: object) => Buffer.from(JSON.stringify(claims)).toString('base64url');
  const attestation = `${unsigned({ alg: 'none' })}.${unsigned({ sub: 'rs-client' })}.`;
  const res = await postForm(`${s.url}/auth/token`, { grant_type: 'password', ...user, client_id: 'rs-client' }, { 'oauth-client-attestation': attestation });
  t.is(res.status, 400, res.text);
  t.is(res.body['error'], 'invalid_request');
});

test('the resource server client is refused at /auth/code: 400 page, never a redirect', async (t) => {
  const params = { client_id: 'rs-client', redirect_uri: redirectUri, response_type: 'code', state: 's' };
  const page = await fetch(`${s.url}/auth/code?${new URLSearchParams(params).toString()}`, { redirect: 'manual' });
  t.is(page.status, 400);
  t.regex(page.headers.get('content-type') ?? '', /^text\/html/);
  t.regex(await page.text(), /unauthorized_client/);
  const post = await postForm(`${s.url}/auth/code`, { ...params, ...user });
  t.is(post.status, 400);
  t.is(post.headers.get('location'), null);
  t.regex(post.text, /unauthorized_client/);
});

test('the resource server client still introspects any token', async (t) => {
  const issued = await passwordGrant(s.url, basic('app', 'app-secret'), user);
  const res = await postForm(`${s.url}/auth/introspect`, { token: String(issued.body['access_token']) }, { authorization: rs });
  t.is(res.status, 200);
  t.is(res.body['active'], true);
  t.is(res.body['client_id'], 'app');
});
