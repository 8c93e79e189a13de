/**
 * No user-supplied string with a NUL (or a lone UTF-16 surrogate) reaches a
 * database query: PostgreSQL fails such a query ("invalid byte sequence for
 * encoding UTF8: 0x00"), which used to be a 500. Each parameter that could
 * reach one answers as for any other wrong value.
 */
import test from 'ava';
import { addClient, addUser, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic, passwordGrant } from '../_helpers/http.ts';

let s: TestServer;
const redirectUri = 'http://127.0.0.1:9/cb';
const conf = basic('conf', 'secret');

test.before(async () => {
  s = await startTestServer();
  await addClient(s.db, { id: 'conf', secret: 'secret' });
  await addClient(s.db, { id: 'web', secret: 'web-secret', redirectUri });
  await addClient(s.db, { id: 'resource-server', secret: 'rs-secret' });
  await addUser(s.db, 'bob', 'hero-password-1');
  await addUser(s.db, 'nul', 'hero-password\u0000');
});
test.after.always(() => s?.close());

/** A raw form body, so escapes such as %00 reach the server exactly as written. */
async function post(path: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${s.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
    redirect: 'manual',
  });
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) as Record<string, unknown>, location: response.headers.get('location') };
}

for (const username of ['a%00b', '%00', 'bob%00']) {
  test(`password grant: username=${username} → 400 invalid_grant, as an unknown user (not 500)`, async (t) => {
    const res = await post('/auth/token', `grant_type=password&username=${username}&password=hero-password-1`, { authorization: conf });
    t.is(res.status, 400, res.text);
    t.is(res.json()['error'], 'invalid_grant');
    const unknown = await passwordGrant(s.url, conf, { username: 'nobody', password: 'hero-password-1' });
    t.deepEqual(res.json(), unknown.body, 'the same answer as an unknown user');
  });
}

test('a password with a NUL is compared like any other (it never reaches a query)', async (t) => {
  t.is((await post('/auth/token', 'grant_type=password&username=nul&password=hero-password%00', { authorization: conf })).status, 200);
  const wrong = await post('/auth/token', 'grant_type=password&username=bob&password=hero-password-1%00', { authorization: conf });
  t.is(wrong.json()['error'], 'invalid_grant');
});

for (const [name, body, expected] of [
  ['code', `grant_type=authorization_code&code=a%00b&redirect_uri=${encodeURIComponent(redirectUri)}`, 'invalid_grant'],
  ['refresh_token', 'grant_type=refresh_token&refresh_token=a%00b', 'invalid_grant'],
  ['scope', 'grant_type=password&username=bob&password=hero-password-1&scope=a%00b', 'invalid_scope'],
  ['client_id', 'grant_type=password&username=bob&password=hero-password-1&client_id=a%00b', 'invalid_client'],
] as const) {
  test(`token endpoint: ${name} with a NUL → ${expected}, never 500`, async (t) => {
    const client = name === 'code' ? basic('web', 'web-secret') : conf;
    const res = await post('/auth/token', body, name === 'client_id' ? {} : { authorization: client });
    t.true(res.status === 400 || res.status === 401, res.text);
    t.is(res.json()['error'], expected);
  });
}

test('introspection and revocation of a token with a NUL: inactive / 200, never 500', async (t) => {
  const introspected = await post('/auth/introspect', 'token=a%00b', { authorization: basic('resource-server', 'rs-secret') });
  t.is(introspected.status, 200, introspected.text);
  t.deepEqual(introspected.json(), { active: false });
  const revoked = await post('/auth/revoke', 'token=a%00b&token_type_hint=refresh_token', { authorization: conf });
  t.is(revoked.status, 200, revoked.text);
});

const codeRequest = `client_id=web&redirect_uri=${encodeURIComponent(redirectUri)}&response_type=code&state=st`;

for (const username of ['a%00b', '%00']) {
  test(`POST /auth/code with username=${username} → the login form again with the error message`, async (t) => {
    const res = await post('/auth/code', `${codeRequest}&username=${username}&password=hero-password-1`);
    t.is(res.status, 200, res.text);
    t.is(res.location, null);
    t.regex(res.text, /role="alert"[^>]*>Invalid username or password\./);
    t.false(res.text.includes('\u0000'), 'the NUL is not echoed into the page');
  });
}

for (const [name, value] of [
  ['nonce', 'scope=openid&nonce=n%00n'],
  ['state', 'state2=x&state=s%00'],
  ['redirect_uri', 'redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb%00'],
  ['scope', 'scope=a%00b'],
  ['code_challenge', 'code_challenge=a%00b&code_challenge_method=S256'],
  ['client_id', 'client_id=w%00eb'],
] as const) {
  test(`POST /auth/code with a NUL in ${name} → 400 page, no code (never 500)`, async (t) => {
    const base = new URLSearchParams(codeRequest);
    base.delete(name);
    const res = await post('/auth/code', `${base.toString()}&${value}&username=bob&password=hero-password-1`);
    t.is(res.status, 400, res.text);
    t.is(res.location, null);
    t.regex(res.text, /invalid_request/);
  });
}

test('GET /auth/code with a NUL in the nonce → 400 page (never 500)', async (t) => {
  const res = await fetch(`${s.url}/auth/code?${codeRequest}&scope=openid&nonce=%00`);
  t.is(res.status, 400);
});

test('a UTF-16 form body with a lone surrogate → 400 request entity could not be decoded (as http-kit)', async (t) => {
  const body = Buffer.concat([Buffer.from('grant_type=password&username=a', 'utf16le'), Buffer.from([0x00, 0xd8]), Buffer.from('&password=hero-password-1', 'utf16le')]);
  const res = await fetch(`${s.url}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-16le', authorization: conf },
    body,
  });
  t.is(res.status, 400);
  t.deepEqual(await res.json(), { error: 'request entity could not be decoded' });
});

test('a UTF-16 form body is read in its charset', async (t) => {
  const res = await fetch(`${s.url}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-16le', authorization: conf },
    body: Buffer.from('grant_type=password&username=bob&password=hero-password-1', 'utf16le'),
  });
  t.is(res.status, 200);
});
