import test from 'ava';
import { addClient, addUser, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic, passwordGrant, postForm } from '../_helpers/http.ts';
import { pkcePair } from '../_helpers/pkce.ts';

// RFC 8252: native apps register private-use URI schemes (7.1) or loopback http URIs (7.3).
let s: TestServer;
const PUBLIC_URI = 'com.example.app:/callback';
const CONFIDENTIAL_URI = 'myapp://cb';
const LOOPBACK_URI = 'http://127.0.0.1:8123/cb';

test.before(async () => {
  s = await startTestServer();
  await addClient(s.db, { id: 'native-pub', redirectUri: PUBLIC_URI, allowedScopes: ['heroes:read'] });
  await addClient(s.db, { id: 'native-conf', secret: 'conf-secret', redirectUri: CONFIDENTIAL_URI });
  await addClient(s.db, { id: 'loopback', redirectUri: LOOPBACK_URI });
  await addUser(s.db, 'bob', 'bob-password-1');
});
test.after.always(() => s?.close());

test('a client with a private-use redirect URI gets password-grant tokens', async (t) => {
  const pub = await passwordGrant(s.url, basic('native-pub', ''), { username: 'bob', password: 'bob-password-1' });
  t.is(pub.status, 200, pub.text);
  t.is(pub.body['scope'], 'heroes:read');
  const conf = await passwordGrant(s.url, basic('native-conf', 'conf-secret'), { username: 'bob', password: 'bob-password-1' });
  t.is(conf.status, 200, conf.text);
  t.is(typeof conf.body['refresh_token'], 'string');
});

test('a client with a private-use redirect URI revokes its token', async (t) => {
  const token = await passwordGrant(s.url, basic('native-pub', ''), { username: 'bob', password: 'bob-password-1' });
  const res = await postForm(`${s.url}/auth/revoke`, { token: String(token.body['access_token']) }, { authorization: basic('native-pub', '') });
  t.is(res.status, 200, res.text);
});

async function codeFlow(clientId: string, redirectUri: string, authorization: string, pkce: boolean) {
  const { verifier, challenge } = pkcePair();
  const res = await postForm(`${s.url}/auth/code`, {
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    state: 'st',
    username: 'bob',
    password: 'bob-password-1',
    ...(pkce ? { code_challenge: challenge, code_challenge_method: 'S256' } : {}),
  });
  const location = res.headers.get('location') ?? '';
  return { res, location, verifier, authorization };
}

test('full code flow for a public client with a private-use scheme and PKCE', async (t) => {
  const { res, location, verifier } = await codeFlow('native-pub', PUBLIC_URI, '', true);
  t.is(res.status, 302, res.text);
  t.true(location.startsWith(`${PUBLIC_URI}?code=`), location);
  const code = new URLSearchParams(location.slice(location.indexOf('?') + 1)).get('code') ?? '';
  const token = await postForm(`${s.url}/auth/token`, { grant_type: 'authorization_code', code, redirect_uri: PUBLIC_URI, code_verifier: verifier, client_id: 'native-pub' });
  t.is(token.status, 200, token.text);
  t.is(token.body['scope'], 'heroes:read');
});

test('full code flow for a confidential client with a private-use scheme', async (t) => {
  const { res, location } = await codeFlow('native-conf', CONFIDENTIAL_URI, '', false);
  t.is(res.status, 302, res.text);
  t.true(location.startsWith(`${CONFIDENTIAL_URI}?code=`), location);
  const code = new URLSearchParams(location.slice(location.indexOf('?') + 1)).get('code') ?? '';
  const token = await postForm(`${s.url}/auth/token`, { grant_type: 'authorization_code', code, redirect_uri: CONFIDENTIAL_URI }, { authorization: basic('native-conf', 'conf-secret') });
  t.is(token.status, 200, token.text);
  t.is(typeof token.body['refresh_token'], 'string');
});

test('errors after the client is trusted redirect to the private-use URI exactly as registered', async (t) => {
  const { res, location } = await codeFlow('native-pub', PUBLIC_URI, '', false);
  t.is(res.status, 302, res.text);
  t.true(location.startsWith(`${PUBLIC_URI}?error=invalid_request&`), location);
});

test('GET /auth/code renders the login form for a private-use scheme client', async (t) => {
  const { challenge } = pkcePair();
  const query = new URLSearchParams({ client_id: 'native-pub', response_type: 'code', state: 's', code_challenge: challenge, code_challenge_method: 'S256' });
  const res = await fetch(`${s.url}/auth/code?${query.toString()}`);
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /^text\/html/);
});

test('a public client with a loopback http redirect URI completes the code flow', async (t) => {
  const { res, location, verifier } = await codeFlow('loopback', LOOPBACK_URI, '', true);
  t.is(res.status, 302, res.text);
  t.true(location.startsWith(`${LOOPBACK_URI}?code=`), location);
  const code = new URL(location).searchParams.get('code') ?? '';
  const token = await postForm(`${s.url}/auth/token`, { grant_type: 'authorization_code', code, redirect_uri: LOOPBACK_URI, code_verifier: verifier, client_id: 'loopback' });
  t.is(token.status, 200, token.text);
});

// RFC 8252 7.3: for a loopback IP literal redirect URI any port matches at request time; 8.3: not `localhost`.
test('loopback IP redirect URIs (RFC 8252 7.3): any port matches, the code is bound to the port asked for; localhost is not so treated', async (t) => {
  await addClient(s.db, { id: 'loopback-any-port', redirectUris: ['http://127.0.0.1/callback', 'http://[::1]/callback?app=1', 'http://localhost/callback'] });
  for (const requested of ['http://127.0.0.1:53123/callback', 'http://[::1]:8080/callback?app=1', 'http://127.0.0.1/callback']) {
    const { verifier, challenge } = pkcePair();
    const form = { client_id: 'loopback-any-port', redirect_uri: requested, response_type: 'code', state: 'st', code_challenge: challenge, code_challenge_method: 'S256' };
    const page = await fetch(`${s.url}/auth/code?${new URLSearchParams(form)}`);
    t.is(page.status, 200, requested);
    const res = await postForm(`${s.url}/auth/code`, { ...form, username: 'bob', password: 'bob-password-1' });
    t.is(res.status, 302, `${requested}: ${res.text.slice(0, 200)}`);
    const location = res.headers.get('location') ?? '';
    t.true(location.startsWith(`${requested}${requested.includes('?') ? '&' : '?'}code=`), location);
    const code = new URL(location).searchParams.get('code') ?? '';
    const exchange = (redirectUri: string) => postForm(`${s.url}/auth/token`, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier, client_id: 'loopback-any-port' });
    const otherPort = await exchange(requested.replace(/(\]|1)(:\d+)?\//, '$1:9999/'));
    t.deepEqual([otherPort.status, otherPort.body['error']], [400, 'invalid_grant'], 'the exchange repeats the port the request used');
    t.is((await exchange(requested)).status, 200, requested);
  }
  for (const refused of ['http://localhost:53123/callback', 'http://127.0.0.1:53123/other', 'http://127.0.0.1:53123/callback?app=1', 'https://127.0.0.1:53123/callback', 'http://127.0.0.1:0/callback', 'http://127.0.0.1:053123/callback', 'http://127.0.0.1:65536/callback', 'http://127.0.0.2:53123/callback']) {
    const { challenge } = pkcePair();
    const query = new URLSearchParams({ client_id: 'loopback-any-port', redirect_uri: refused, response_type: 'code', state: 'st', code_challenge: challenge, code_challenge_method: 'S256' });
    const res = await fetch(`${s.url}/auth/code?${query}`, { redirect: 'manual' });
    t.is(res.status, 400, refused);
    t.regex(await res.text(), /redirect_uri does not match any registered redirect URI/, refused);
  }
});
