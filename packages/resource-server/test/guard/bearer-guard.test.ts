import http from 'node:http';
import test from 'ava';
import { activeToken, startFakeAuthServer, type FakeAuthServer } from '../_helpers/fake-auth-server.ts';
import { bearer, request } from '../_helpers/http.ts';
import { startInProcess, type InProcessServer } from '../_helpers/in-process.ts';

let auth: FakeAuthServer;
let rs: InProcessServer;

test.before(async () => {
  auth = await startFakeAuthServer();
  auth.tokens.set('full', activeToken());
  auth.tokens.set('unscoped', activeToken({ scope: undefined }));
  auth.tokens.set('openid', activeToken({ scope: 'openid' }));
  auth.tokens.set('other', activeToken({ scope: 'openid profile villains' }));
  auth.tokens.set('reader', activeToken({ scope: 'heroes:read' }));
  auth.tokens.set('writer', activeToken({ scope: 'heroes:write other' }));
  auth.tokens.set('parent', activeToken({ scope: 'heroes' }));
  auth.tokens.set('modified', activeToken({ scope: 'heroes.readonly' }));
  auth.tokens.set('expired', activeToken({}, -10));
  auth.tokens.set('refresh', { ...activeToken(), token_type: undefined });
  auth.tokens.set('dpop', activeToken({ token_type: 'DPoP' }));
  auth.tokens.set('elsewhere', activeToken({ aud: 'https://other-api.example/' }));
  auth.tokens.set('no-audience', activeToken({ aud: undefined }));
  rs = await startInProcess(auth.url);
  challengeParams = `realm="heroes", resource_metadata="${rs.url}/.well-known/oauth-protected-resource"`;
  auth.tokens.set('listed', activeToken({ aud: ['https://other-api.example/', rs.url] }));
});
/** What every challenge starts with: the realm and the metadata document (RFC 9728 section 5.1). */
let challengeParams = '';
test.after.always(async () => {
  await rs?.close();
  await auth?.close();
});

const heroes = (headers: Record<string, string> = {}, method = 'GET') =>
  request(`${rs.url}/heroes`, { method, headers, ...(method === 'POST' ? { json: { name: `h-${Math.random()}` } } : {}) });

test('no Authorization header → 401 JSON with a Bearer challenge (and the DPoP one)', async (t) => {
  const res = await heroes();
  t.is(res.status, 401);
  t.is(res.headers.get('www-authenticate'), `Bearer ${challengeParams}, DPoP ${challengeParams}, algs="ES256 EdDSA Ed25519 PS256 RS256"`);
  t.deepEqual(res.body, { error: 'unauthorized' });
});

for (const header of ['Bearer', 'Bearer ', 'Bearer a b', 'Basic Ym9iOnB3', 'Token abc', 'Bearer ab"c', 'bearer\tabc', 'Bearer ä']) {
  test(`malformed header ${JSON.stringify(header)} → 400 invalid_authorization_header`, async (t) => {
    const res = await heroes({ authorization: header });
    t.is(res.status, 400);
    t.deepEqual(res.body, { error: 'invalid_authorization_header' });
    t.is(res.headers.get('www-authenticate'), `Bearer ${challengeParams}, error="invalid_request"`);
  });
}

test('scheme is case-insensitive (RFC 9110 section 11.1)', async (t) => {
  t.is((await heroes({ authorization: 'bearer full' })).status, 200);
  t.is((await heroes({ authorization: 'BEARER full' })).status, 200);
});

for (const token of ['unknown-token', 'expired', 'refresh', 'dpop']) {
  test(`${token} token → 401 invalid_token`, async (t) => {
    const res = await heroes(bearer(token));
    t.is(res.status, 401);
    t.deepEqual(res.body, { error: 'invalid_token' });
    t.true((res.headers.get('www-authenticate') ?? '').startsWith(`Bearer ${challengeParams}, error="invalid_token"`));
  });
}

test('a token whose audience does not include this API → 401 invalid_token (RFC 8707); one listing it among others works', async (t) => {
  for (const token of ['elsewhere', 'no-audience']) {
    const res = await heroes(bearer(token));
    t.is(res.status, 401, token);
    t.deepEqual(res.body, { error: 'invalid_token' });
    t.is(res.headers.get('www-authenticate'), `Bearer ${challengeParams}, error="invalid_token", error_description="the access token is not meant for this resource"`);
  }
  t.is((await heroes(bearer('listed'))).status, 200, 'the identifier without its trailing slash, in a list');
});

test('a token with both hero scopes reads and writes', async (t) => {
  t.is((await heroes(bearer('full'))).status, 200);
  t.is((await heroes(bearer('full'), 'POST')).status, 200);
});

test('deny by default: a token without hero scopes (none, openid, others) can neither read nor write', async (t) => {
  for (const token of ['unscoped', 'openid', 'other']) {
    const read = await heroes(bearer(token));
    t.is(read.status, 403, token);
    t.deepEqual(read.body, { error: 'insufficient_scope', scope: 'heroes:read' }, token);
    t.is((await heroes(bearer(token), 'POST')).status, 403, token);
  }
});

test('heroes:read reads but cannot write → 403 insufficient_scope', async (t) => {
  t.is((await heroes(bearer('reader'))).status, 200);
  const res = await heroes(bearer('reader'), 'POST');
  t.is(res.status, 403);
  t.deepEqual(res.body, { error: 'insufficient_scope', scope: 'heroes:write' });
  t.is(res.headers.get('www-authenticate'), `Bearer ${challengeParams}, error="insufficient_scope", scope="heroes:write"`);
  const del = await request(`${rs.url}/heroes/1`, { method: 'DELETE', headers: bearer('reader') });
  t.is(del.status, 403);
});

test('heroes:write without heroes:read cannot read', async (t) => {
  const res = await heroes(bearer('writer'));
  t.is(res.status, 403);
  t.deepEqual(res.body, { error: 'insufficient_scope', scope: 'heroes:read' });
  t.is((await heroes(bearer('writer'), 'POST')).status, 200);
});

test('a parent scope grants its sub-scopes; a .modifier scope does not', async (t) => {
  t.is((await heroes(bearer('parent'))).status, 200);
  t.is((await heroes(bearer('parent'), 'POST')).status, 200);
  t.is((await heroes(bearer('modified'))).status, 403);
});

test('the resource server authenticates with URL-encoded Basic credentials', async (t) => {
  await heroes(bearer('basic-check'));
  t.is(auth.lastAuthorization, `Basic ${Buffer.from('resource-server:rs-secret').toString('base64')}`);
});

/** A request with the Authorization header sent once per value (fetch would join them). */
function withAuthorizationHeaders(values: string[]): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${rs.url}/heroes`, { agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }));
    });
    req.setHeader('authorization', values);
    req.on('error', reject).end();
  });
}

for (const values of [['Bearer bad', 'Bearer full'], ['Bearer full', 'Bearer full'], ['Bearer full', 'Basic Ym9iOnB3']]) {
  // Refused before routing, as every header that must appear once (docs/http.md): no credential of either is used.
  test(`more than one Authorization header (${values.join(' + ')}) → 400 before any token is looked at (RFC 6750 section 3.1, RFC 9110 section 5.3)`, async (t) => {
    const res = await withAuthorizationHeaders(values);
    t.is(res.status, 400);
    t.deepEqual(res.body, { error: 'repeated Authorization header' });
  });
}
