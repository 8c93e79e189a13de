import test from 'ava';
import { addClient, addUser, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic, basicHeader, passwordGrant, postForm, requestJson } from '../_helpers/http.ts';

let s: TestServer;
const user = { username: 'bob', password: 'foobaxx-password' };

test.before(async () => {
  s = await startTestServer();
  await addClient(s.db, { id: 'conf', secret: 'conf-secret' });
  await addClient(s.db, { id: 'scoped', secret: 'scoped-secret', allowedScopes: ['heroes:read'] });
  await addClient(s.db, { id: 'pub' });
  await addUser(s.db, 'bob', 'foobaxx-password');
});
test.after.always(() => s?.close());

function assertInvalidClient(t: import('ava').ExecutionContext, res: Awaited<ReturnType<typeof passwordGrant>>, withHeader: boolean) {
  t.is(res.status, 401, res.text);
  t.is(res.body['error'], 'invalid_client');
  t.is(typeof res.body['error_description'], 'string');
  if (withHeader) t.regex(res.headers.get('www-authenticate') ?? '', /^Basic realm=/);
}

test('unknown client → 401 invalid_client with WWW-Authenticate', async (t) => {
  assertInvalidClient(t, await passwordGrant(s.url, basic('nobody', 'x'), user), true);
});

test('wrong secret → 401 invalid_client', async (t) => {
  assertInvalidClient(t, await passwordGrant(s.url, basic('conf', 'wrong'), user), true);
});

test('empty secret for a client that has one → 401 invalid_client', async (t) => {
  assertInvalidClient(t, await passwordGrant(s.url, basic('conf', ''), user), true);
});

test('a secret sent by a public client → 401 invalid_client', async (t) => {
  assertInvalidClient(t, await passwordGrant(s.url, basic('pub', 'something'), user), true);
});

test('unknown public client via Basic id: → 401 invalid_client', async (t) => {
  assertInvalidClient(t, await passwordGrant(s.url, basic('ghost', ''), user), true);
});

test('no client authentication at all → 401 invalid_client', async (t) => {
  assertInvalidClient(t, await passwordGrant(s.url, undefined, user), false);
});

test('unknown client_id in the body → 401 invalid_client', async (t) => {
  assertInvalidClient(t, await passwordGrant(s.url, undefined, { client_id: 'ghost', ...user }), false);
});

for (const [title, header] of [
  ['not Basic', 'Bearer abc'],
  ['no credentials', 'Basic'],
  ['invalid base64', 'Basic !!!notbase64'],
  ['no colon', basicHeader('confsecret')],
  ['empty id', basicHeader(':secret')],
  ['bad percent escape', basicHeader('conf:%zz')],
  ['two spaces', 'Basic  Y29uZjpjb25mLXNlY3JldA=='],
] as const) {
  test(`malformed Basic header (${title}) → 401 invalid_client, never 500`, async (t) => {
    assertInvalidClient(t, await passwordGrant(s.url, header, user), true);
  });
}

// RFC 6749 Appendix A.1/A.2: client_id and client_secret are *VSCHAR (%x20-7E); the
// CLI registers nothing else. A well-formed header carrying other characters is a
// failed client authentication, like a wrong secret, not a malformed header.
for (const [title, header] of [
  ['URL-encoded non-ASCII secret (as openid-client sends it)', basicHeader('conf:s3cr3t%3A%2B%2F%25%C3%A9')],
  ['raw UTF-8 secret', basicHeader('conf:sécret')],
  ['control character in the secret', basicHeader('conf:\u0001')],
  ['NUL in the id', basicHeader('co%00nf:conf-secret')],
  ['non-ASCII id', basicHeader('c%C3%B6nf:conf-secret')],
] as const) {
  test(`well-formed Basic header with credentials outside VSCHAR (${title}) → 401 client authentication failed`, async (t) => {
    const res = await passwordGrant(s.url, header, user);
    assertInvalidClient(t, res, true);
    t.is(res.body['error_description'], 'client authentication failed');
    t.regex(res.headers.get('www-authenticate') ?? '', /error="invalid_client"/);
  });
}

test('a credential refused before the library reads as the library\'s own refusal of a wrong secret', async (t) => {
  const wrong = await passwordGrant(s.url, basic('conf', 'wrong'), user);
  const outsideVschar = await passwordGrant(s.url, basicHeader('conf:sécret'), user);
  t.is(wrong.status, 401);
  t.is(outsideVschar.status, 401);
  t.is(outsideVschar.body['error_description'], wrong.body['error_description']);
});

test('no client authentication keeps the library\'s CORS answer, and a form with an empty client_id is none either', async (t) => {
  const origin = 'https://anywhere.example';
  const res = await postForm(`${s.url}/auth/token`, { grant_type: 'password', ...user }, { origin });
  assertInvalidClient(t, res, false);
  t.is(res.headers.get('access-control-allow-origin'), origin);
  assertInvalidClient(t, await passwordGrant(s.url, undefined, { client_id: '', ...user }), false);
});

test('client_secret_post or client_id outside VSCHAR → 401 invalid_client, never 500', async (t) => {
  const post = await passwordGrant(s.url, undefined, { client_id: 'conf', client_secret: 'sécret', ...user });
  assertInvalidClient(t, post, false);
  const nul = await passwordGrant(s.url, undefined, { client_id: 'co\u0000nf', ...user });
  assertInvalidClient(t, nul, false);
  const nulPost = await passwordGrant(s.url, undefined, { client_id: 'co\u0000nf', client_secret: 'x', ...user });
  assertInvalidClient(t, nulPost, false);
});

test('wrong password and unknown user give the same invalid_grant', async (t) => {
  const wrong = await passwordGrant(s.url, basic('conf', 'conf-secret'), { username: 'bob', password: 'nope' });
  const unknown = await passwordGrant(s.url, basic('conf', 'conf-secret'), { username: 'alice', password: 'nope' });
  const empty = await passwordGrant(s.url, basic('conf', 'conf-secret'), { username: 'bob', password: '' });
  for (const res of [wrong, unknown]) {
    t.is(res.status, 400);
    t.is(res.body['error'], 'invalid_grant');
  }
  t.is(wrong.body['error_description'], unknown.body['error_description']);
  t.is(empty.status, 400);
  t.true(['invalid_grant', 'invalid_request'].includes(String(empty.body['error'])));
});

test('missing grant_type → invalid_request', async (t) => {
  const res = await postForm(`${s.url}/auth/token`, user, { authorization: basic('conf', 'conf-secret') });
  t.is(res.status, 400);
  t.is(res.body['error'], 'invalid_request');
});

test('missing username or password → invalid_request', async (t) => {
  const noUser = await passwordGrant(s.url, basic('conf', 'conf-secret'), { password: 'foobaxx-password' });
  const noPass = await passwordGrant(s.url, basic('conf', 'conf-secret'), { username: 'bob' });
  for (const res of [noUser, noPass]) {
    t.is(res.status, 400);
    t.is(res.body['error'], 'invalid_request');
  }
});

test('unknown grant type → unsupported_grant_type', async (t) => {
  const res = await postForm(`${s.url}/auth/token`, { grant_type: 'magic', ...user }, { authorization: basic('conf', 'conf-secret') });
  t.is(res.status, 400);
  t.is(res.body['error'], 'unsupported_grant_type');
});

test('implicit is not a grant type here; client_credentials only for clients registered for it', async (t) => {
  const implicit = await postForm(`${s.url}/auth/token`, { grant_type: 'implicit' }, { authorization: basic('conf', 'conf-secret') });
  t.is(implicit.body['error'], 'unsupported_grant_type');
  const credentials = await postForm(`${s.url}/auth/token`, { grant_type: 'client_credentials' }, { authorization: basic('conf', 'conf-secret') });
  t.is(credentials.body['error'], 'unauthorized_client', 'a client registered without grant types keeps the default of its kind');
});

test('scope not allowed for the client → invalid_scope', async (t) => {
  const res = await passwordGrant(s.url, basic('scoped', 'scoped-secret'), { ...user, scope: 'heroes:write' });
  t.is(res.status, 400);
  t.is(res.body['error'], 'invalid_scope');
});

test('malformed scope → invalid_scope', async (t) => {
  const res = await passwordGrant(s.url, basic('scoped', 'scoped-secret'), { ...user, scope: 'heroes:read  x"y' });
  t.is(res.status, 400);
  t.is(res.body['error'], 'invalid_scope');
});

test('non-form body → 400 with a clear error', async (t) => {
  const res = await requestJson(`${s.url}/auth/token`, {
    method: 'POST',
    headers: { authorization: basic('conf', 'conf-secret'), 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'password', ...user }),
  });
  t.is(res.status, 400);
  t.is(res.body['error'], 'invalid_request');
  t.regex(String(res.body['error_description']), /application\/x-www-form-urlencoded/);
});

test('non-form body with a public client Basic header → 400, not 500', async (t) => {
  const res = await requestJson(`${s.url}/auth/token`, {
    method: 'POST',
    headers: { authorization: basic('pub', ''), 'content-type': 'text/plain' },
    body: 'grant_type=password',
  });
  t.is(res.status, 400);
});

test('repeated grant_type → invalid_request', async (t) => {
  const res = await requestJson(`${s.url}/auth/token`, {
    method: 'POST',
    headers: { authorization: basic('conf', 'conf-secret'), 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=password&grant_type=password&username=bob&password=foobaxx-password',
  });
  t.is(res.status, 400);
  t.is(res.body['error'], 'invalid_request');
});

test('client_id in the body different from the Basic id → invalid_request', async (t) => {
  const res = await passwordGrant(s.url, basic('pub', ''), { client_id: 'conf', ...user });
  t.is(res.status, 400);
  t.is(res.body['error'], 'invalid_request');
});

test('GET /auth/token is not a token request: 405, Allow: POST', async (t) => {
  const response = await fetch(`${s.url}/auth/token`);
  t.is(response.status, 405);
  t.is(response.headers.get('allow'), 'POST');
});
