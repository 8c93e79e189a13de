import test from 'ava';
import { addClient, addUser, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic, passwordGrant, postForm } from '../_helpers/http.ts';
import { pkcePair } from '../_helpers/pkce.ts';
import { accountSubject } from '../../src/throttle/login-throttle.ts';

let s: TestServer;
const redirectUri = 'http://127.0.0.1:9/cb';
const user = { username: 'bob', password: 'hero-password-1' };

test.before(async () => {
  s = await startTestServer();
  await addClient(s.db, { id: 'tour-of-heroes', redirectUri });
  await addClient(s.db, { id: 'code-only', secret: 'code-secret', redirectUri, grantTypes: ['authorization_code'] });
  await addClient(s.db, { id: 'password-only', secret: 'password-secret', redirectUri, grantTypes: ['password'] });
  await addClient(s.db, { id: 'default-conf', secret: 'default-secret', redirectUri });
  await addUser(s.db, user.username, user.password);
  await addUser(s.db, 'carol', 'carol-password-1');
});
test.after.always(() => s?.close());

async function code(clientId: string) {
  const { challenge, verifier } = pkcePair();
  const res = await postForm(`${s.url}/auth/code`, { client_id: clientId, redirect_uri: redirectUri, response_type: 'code', state: 's', code_challenge: challenge, code_challenge_method: 'S256', ...user });
  return { res, verifier, code: new URL(res.headers.get('location') ?? 'about:blank').searchParams.get('code') };
}

test('a client registered without grant types keeps the default of its kind', async (t) => {
  const password = await passwordGrant(s.url, basic('default-conf', 'default-secret'), user);
  t.is(password.status, 200);
  t.truthy(password.body['refresh_token']);
  const refreshed = await postForm(`${s.url}/auth/token`, { grant_type: 'refresh_token', refresh_token: String(password.body['refresh_token']) }, { authorization: basic('default-conf', 'default-secret') });
  t.is(refreshed.status, 200);
  const { code: value, verifier } = await code('default-conf');
  const exchanged = await postForm(`${s.url}/auth/token`, { grant_type: 'authorization_code', code: value!, redirect_uri: redirectUri, code_verifier: verifier }, { authorization: basic('default-conf', 'default-secret') });
  t.is(exchanged.status, 200);
  const credentials = await postForm(`${s.url}/auth/token`, { grant_type: 'client_credentials' }, { authorization: basic('default-conf', 'default-secret') });
  t.is(credentials.body['error'], 'unauthorized_client', 'client_credentials only when registered for it');
});

test('the built-in browser client may not use the password grant (RFC 9700 2.4), and no password is checked', async (t) => {
  const res = await passwordGrant(s.url, basic('tour-of-heroes', ''), { username: 'carol', password: 'not-the-password' });
  t.is(res.status, 400);
  t.is(res.body['error'], 'unauthorized_client');
  t.is(await s.db.loginThrottle.count({ where: { key: accountSubject('carol') } }), 0, 'no failure counted against carol');
  const { res: redirect, code: value, verifier } = await code('tour-of-heroes');
  t.is(redirect.status, 302);
  const exchanged = await postForm(`${s.url}/auth/token`, { grant_type: 'authorization_code', client_id: 'tour-of-heroes', code: value!, redirect_uri: redirectUri, code_verifier: verifier });
  t.is(exchanged.status, 200, 'the code flow works');
  t.false('refresh_token' in exchanged.body);
});

test('a code-only client gets no refresh token and may not use the password grant', async (t) => {
  const refused = await passwordGrant(s.url, basic('code-only', 'code-secret'), user);
  t.is(refused.body['error'], 'unauthorized_client');
  const { code: value, verifier } = await code('code-only');
  const exchanged = await postForm(`${s.url}/auth/token`, { grant_type: 'authorization_code', code: value!, redirect_uri: redirectUri, code_verifier: verifier }, { authorization: basic('code-only', 'code-secret') });
  t.is(exchanged.status, 200);
  t.false('refresh_token' in exchanged.body, 'refresh_token is not among its grant types');
});

test('a client without authorization_code is refused at /auth/code with unauthorized_client, before any password', async (t) => {
  const { res } = await code('password-only');
  t.is(res.status, 400);
  t.is(res.headers.get('location'), null);
  const get = await fetch(`${s.url}/auth/code?client_id=password-only&response_type=code&state=s`);
  t.is(get.status, 400);
  t.regex(await get.text(), /not registered for the authorization code flow/);
});
