/**
 * OpenID Connect in the code flow (Core 3.1): discovery advertises `openid`,
 * so /auth/code with scope=openid (and a nonce) yields an ID token at the
 * exchange, signed with our configured key as published at /auth/jwks.
 */
import crypto from 'node:crypto';
import test from 'ava';
import { addClient, addUser, startTestServer, testKeys, RESOURCE_SERVER_CLIENT, type TestServer } from '../_helpers/fixtures.ts';
import { basic, introspectAsResourceServer, postForm } from '../_helpers/http.ts';

let s: TestServer;
let userId: number;
const redirectUri = 'http://127.0.0.1:9/cb';
const issuer = 'http://localhost:8888';

test.before(async () => {
  s = await startTestServer();
  await addClient(s.db, { id: 'web', secret: 'web-secret', redirectUri });
  await addClient(s.db, { id: 'scoped', secret: 'scoped-secret', redirectUri, allowedScopes: ['heroes:read', 'heroes:write'] });
  await addClient(s.db, { id: 'lists-openid', secret: 'lo-secret', redirectUri, allowedScopes: ['heroes:read', 'heroes:write', 'openid'] });
  await addClient(s.db, RESOURCE_SERVER_CLIENT);
  userId = await addUser(s.db, 'bob', 'hero-password-1');
});
test.after.always(() => s?.close());

async function codeFor(clientId: string, extra: Record<string, string>): Promise<string> {
  const res = await postForm(`${s.url}/auth/code`, { client_id: clientId, response_type: 'code', state: 'st', username: 'bob', password: 'hero-password-1', ...extra });
  const location = new URL(res.headers.get('location') ?? 'about:blank');
  const code = location.searchParams.get('code');
  if (res.status !== 302 || !code) throw new Error(`no code: ${res.status} ${res.headers.get('location')} ${res.text}`);
  return code;
}

function exchange(clientId: string, secret: string, code: string) {
  return postForm(`${s.url}/auth/token`, { grant_type: 'authorization_code', code, redirect_uri: redirectUri }, { authorization: basic(clientId, secret) });
}

const introspect = (token: string) => introspectAsResourceServer(s.url, token);

/** Verifies the RS256 signature against /auth/jwks and returns the header and payload. */
async function verifyIdToken(t: import('ava').ExecutionContext, jwt: string) {
  const [header64, payload64, signature64] = jwt.split('.') as [string, string, string];
  const header = JSON.parse(Buffer.from(header64, 'base64url').toString('utf8')) as Record<string, unknown>;
  const payload = JSON.parse(Buffer.from(payload64, 'base64url').toString('utf8')) as Record<string, unknown>;
  const jwks = (await (await fetch(`${s.url}/auth/jwks`)).json()) as { keys: (crypto.JsonWebKey & { kid?: string })[] };
  const jwk = jwks.keys.find((key) => key.kid === header['kid']);
  t.truthy(jwk, 'the signing key is published at jwks_uri');
  t.is(header['alg'], 'RS256');
  t.is(header['kid'], testKeys().jwks.keys[0]?.kid, 'signed with the configured key');
  const key = crypto.createPublicKey({ key: jwk!, format: 'jwk' });
  t.true(crypto.verify('sha256', Buffer.from(`${header64}.${payload64}`), key, Buffer.from(signature64, 'base64url')), 'valid signature');
  return payload;
}

test('scope=openid with a nonce → an ID token: iss, aud, sub, nonce, exp, signed with our key', async (t) => {
  const code = await codeFor('web', { scope: 'openid', nonce: 'n-0S6_WzA2Mj' });
  const res = await exchange('web', 'web-secret', code);
  t.is(res.status, 200, res.text);
  t.is(typeof res.body['id_token'], 'string');
  const claims = await verifyIdToken(t, String(res.body['id_token']));
  t.is(claims['iss'], issuer);
  t.is(claims['aud'], 'web');
  t.is(claims['sub'], String(userId));
  t.is(claims['nonce'], 'n-0S6_WzA2Mj');
  const now = Date.now() / 1000;
  t.true(typeof claims['exp'] === 'number' && claims['exp'] > now && claims['exp'] <= now + 3_600 + 5);
  t.true(typeof claims['iat'] === 'number' && Math.abs(claims['iat'] - now) < 10);
});

test('openid asks for an ID token and is no authority: asked alone, the access token grants no hero scope', async (t) => {
  const res = await exchange('web', 'web-secret', await codeFor('web', { scope: 'openid' }));
  t.is(res.status, 200, res.text);
  t.is(res.body['scope'], 'openid', 'RFC 6749 5.1: the scope granted');
  t.is(typeof res.body['id_token'], 'string');
  const info = await introspect(String(res.body['access_token']));
  t.is(info.body['active'], true);
  t.is(info.body['scope'], 'openid', 'the access token records exactly what it grants');
  t.is(info.body['username'], 'bob');
});

test('openid next to resource scopes: the access token records both; refresh gives a new ID token', async (t) => {
  const res = await exchange('scoped', 'scoped-secret', await codeFor('scoped', { scope: 'openid heroes:read', nonce: 'abc' }));
  t.is(res.status, 200, res.text);
  t.is(res.body['scope'], 'openid heroes:read', 'RFC 6749 5.1: the scope granted, openid included');
  t.is((await introspect(String(res.body['access_token']))).body['scope'], 'openid heroes:read');
  t.is(typeof res.body['id_token'], 'string');

  const refreshed = await postForm(`${s.url}/auth/token`, { grant_type: 'refresh_token', refresh_token: String(res.body['refresh_token']) }, { authorization: basic('scoped', 'scoped-secret') });
  t.is(refreshed.status, 200, refreshed.text);
  t.is(refreshed.body['scope'], 'openid heroes:read');
  t.is((await introspect(String(refreshed.body['access_token']))).body['scope'], 'openid heroes:read');
  const claims = await verifyIdToken(t, String(refreshed.body['id_token']));
  t.is(claims['sub'], String(userId));
  t.is(claims['aud'], 'scoped');
});

test('openid alone for a scoped client: an ID token and no hero scope (asking for less gives less)', async (t) => {
  const res = await exchange('scoped', 'scoped-secret', await codeFor('scoped', { scope: 'openid' }));
  t.is(res.body['scope'], 'openid');
  t.is(typeof res.body['id_token'], 'string');
});

test('openid is never implied: no scope requested by a client whose allowed scopes list openid → no ID token', async (t) => {
  const res = await exchange('lists-openid', 'lo-secret', await codeFor('lists-openid', {}));
  t.is(res.status, 200, res.text);
  t.false('id_token' in res.body, res.text);
  t.is(res.body['scope'], 'heroes:read heroes:write');
  const explicit = await exchange('lists-openid', 'lo-secret', await codeFor('lists-openid', { scope: 'openid heroes:read' }));
  t.is(typeof explicit.body['id_token'], 'string');
  t.is(explicit.body['scope'], 'openid heroes:read');
});

test('without openid there is no ID token; a scope outside the allowed list is still refused next to openid', async (t) => {
  const res = await exchange('scoped', 'scoped-secret', await codeFor('scoped', { scope: 'heroes:read', nonce: 'ignored' }));
  t.is(res.status, 200);
  t.false('id_token' in res.body);
  const refused = await postForm(`${s.url}/auth/code`, { client_id: 'scoped', response_type: 'code', state: 'st', scope: 'openid heroes:admin', username: 'bob', password: 'hero-password-1' });
  t.is(new URL(refused.headers.get('location') ?? 'about:blank').searchParams.get('error'), 'invalid_scope');
});

test('the login form carries the nonce through', async (t) => {
  const html = await (await fetch(`${s.url}/auth/code?${new URLSearchParams({ client_id: 'web', response_type: 'code', state: 'st', scope: 'openid', nonce: 'n<1>' })}`)).text();
  t.regex(html, /name="nonce" value="n&#60;1&#62;"/);
  t.regex(html, /name="scope" value="openid"/);
});
