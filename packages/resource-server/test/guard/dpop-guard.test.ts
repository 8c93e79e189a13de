/**
 * The edge's DPoP check (RFC 9449 sections 4.3, 7): each rule broken alone
 * gets 401 with a DPoP challenge, a bound token as Bearer is refused, a
 * valid proof is served once. Introspection is the fake's, so every other
 * part (proof, replay table in PostgreSQL) is real.
 */
import test from 'ava';
import { accessTokenHash, createDpopKey, dpopProof, exchange, fetchJson, type DpopKey, type ProofClaims } from '@heroes/test-kit';
import { activeToken, startFakeAuthServer, type FakeAuthServer } from '../_helpers/fake-auth-server.ts';
import { startInProcess, type InProcessServer } from '../_helpers/in-process.ts';

let auth: FakeAuthServer;
let rs: InProcessServer;
let key: DpopKey;
const TOKEN = 'bound-token';
const ALGS = 'algs="ES256 EdDSA Ed25519 PS256 RS256"';

test.before(async () => {
  key = await createDpopKey();
  auth = await startFakeAuthServer();
  auth.tokens.set(TOKEN, activeToken({ token_type: 'DPoP', cnf: { jkt: key.jkt } }));
  auth.tokens.set('plain', activeToken());
  rs = await startInProcess(auth.url);
});
test.after.always(async () => {
  await rs?.close();
  await auth?.close();
});

const url = (path = '/heroes') => `${rs.url}${path}`;
const proof = (claims: Partial<ProofClaims> = {}, k = key) => dpopProof(k, { htm: 'GET', htu: url(), accessToken: TOKEN, ...claims });

function call(headers: Record<string, string>, method = 'GET', path = '/heroes') {
  return fetchJson<Record<string, unknown>>(url(path), { method, headers, ...(method === 'POST' ? { json: { name: `h-${Math.random()}` } } : {}) });
}

test('a bound token with a valid proof reads and writes heroes; the proof is single-use', async (t) => {
  const dpop = await proof();
  const ok = await call({ authorization: `DPoP ${TOKEN}`, dpop });
  t.is(ok.status, 200, ok.text);
  const replay = await call({ authorization: `DPoP ${TOKEN}`, dpop });
  t.is(replay.status, 401);
  t.is(replay.body?.['error'], 'invalid_dpop_proof');
  t.regex(replay.headers.get('www-authenticate') ?? '', /^DPoP realm="heroes", resource_metadata="[^"]+", error="invalid_dpop_proof", error_description="this DPoP proof was already used"/);
  t.true((replay.headers.get('www-authenticate') ?? '').includes(ALGS));
  const write = await call({ authorization: `DPoP ${TOKEN}`, dpop: await proof({ htm: 'POST' }) }, 'POST');
  t.is(write.status, 200, write.text);
});

test('query strings are ignored in htu, and the scheme and host are compared normalized', async (t) => {
  const upper = url().replace('http://', 'HTTP://');
  const res = await call({ authorization: `DPoP ${TOKEN}`, dpop: await proof({ htu: `${upper}?x=1#f` }) }, 'GET', '/heroes?name=a');
  t.is(res.status, 200, res.text);
});

test('each broken rule → 401 invalid_dpop_proof with a DPoP challenge', async (t) => {
  const other = await createDpopKey();
  const now = Math.floor(Date.now() / 1000);
  const cases: Array<[string, string]> = [
    ['wrong htm', await proof({ htm: 'POST' })],
    ['wrong htu path', await proof({ htu: url('/heroes/1') })],
    ['wrong htu host', await proof({ htu: url().replace('127.0.0.1', 'localhost') })],
    ['old iat', await proof({ iat: now - 120 })],
    ['future iat', await proof({ iat: now + 120 })],
    ['missing ath', await dpopProof(key, { htm: 'GET', htu: url() })],
    ['wrong ath', await proof({ ath: accessTokenHash('another-token') })],
    ['another key', await proof({}, other)],
    ['typ JWT', await proof({ header: { typ: 'JWT' } })],
    ['jwk of another key than the signature', await proof({ header: { jwk: other.publicJwk } })],
    ['alg none', `${Buffer.from(JSON.stringify({ typ: 'dpop+jwt', alg: 'none', jwk: key.publicJwk })).toString('base64url')}.${Buffer.from(JSON.stringify({ htm: 'GET', htu: url(), jti: 'x', iat: now, ath: accessTokenHash(TOKEN) })).toString('base64url')}.`],
    ['not a JWS', 'garbage'],
  ];
  for (const [name, dpop] of cases) {
    const res = await call({ authorization: `DPoP ${TOKEN}`, dpop });
    t.is(res.status, 401, name);
    t.is(res.body?.['error'], 'invalid_dpop_proof', name);
    t.regex(res.headers.get('www-authenticate') ?? '', /^DPoP realm="heroes", resource_metadata="[^"]+", error="invalid_dpop_proof"/, name);
  }
});

test('a symmetric (HS256) proof is refused', async (t) => {
  const { SignJWT } = await import('jose');
  const dpop = await new SignJWT({ htm: 'GET', htu: url(), jti: 'hs', ath: accessTokenHash(TOKEN) })
    .setProtectedHeader({ typ: 'dpop+jwt', alg: 'HS256', jwk: { kty: 'oct', k: 'c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0' } as never })
    .setIssuedAt()
    .sign(new TextEncoder().encode('secretsecretsecretsecretsecret12'));
  const res = await call({ authorization: `DPoP ${TOKEN}`, dpop });
  t.is(res.status, 401);
  t.is(res.body?.['error'], 'invalid_dpop_proof');
});

test('no proof, or two DPoP headers → 401 invalid_dpop_proof', async (t) => {
  const none = await call({ authorization: `DPoP ${TOKEN}` });
  t.is(none.status, 401);
  t.is(none.body?.['error'], 'invalid_dpop_proof');
  const port = Number(new URL(rs.url).port);
  const request = `GET /heroes HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: DPoP ${TOKEN}\r\nDPoP: ${await proof()}\r\nDPoP: ${await proof()}\r\nConnection: close\r\n\r\n`;
  const twice = await exchange(port, request, { until: /\r\n\r\n\{.*\}/s });
  t.regex(twice.text, /^HTTP\/1\.1 401 /);
  t.regex(twice.text, /invalid_dpop_proof/);
});

test('a bound token sent as Bearer → 401 invalid_token with a DPoP challenge', async (t) => {
  const res = await call({ authorization: `Bearer ${TOKEN}`, dpop: await proof() });
  t.is(res.status, 401);
  t.is(res.body?.['error'], 'invalid_token');
  t.regex(res.headers.get('www-authenticate') ?? '', /^DPoP realm="heroes", resource_metadata="[^"]+", error="invalid_token"/);
});

test('a bearer token sent as DPoP → 401 invalid_token; as Bearer it still works, proof or not', async (t) => {
  const asDpop = await call({ authorization: 'DPoP plain', dpop: await proof({ accessToken: 'plain' }) });
  t.is(asDpop.status, 401);
  t.is(asDpop.body?.['error'], 'invalid_token');
  t.is((await call({ authorization: 'Bearer plain' })).status, 200);
});

test('an unknown token under DPoP → 401 invalid_token (DPoP challenge)', async (t) => {
  const res = await call({ authorization: 'DPoP unknown', dpop: await proof({ accessToken: 'unknown' }) });
  t.is(res.status, 401);
  t.is(res.body?.['error'], 'invalid_token');
  t.regex(res.headers.get('www-authenticate') ?? '', /^DPoP /);
});

test('no credentials: both schemes are offered', async (t) => {
  const res = await call({});
  t.is(res.status, 401);
  const params = `realm="heroes", resource_metadata="${rs.url}/.well-known/oauth-protected-resource"`;
  t.is(res.headers.get('www-authenticate'), `Bearer ${params}, DPoP ${params}, ${ALGS}`);
});

test('a proof replayed at a second replica (same database) is refused there', async (t) => {
  const replica = await startInProcess(auth.url, { publicBaseUrl: rs.url }, rs.database);
  try {
    const dpop = await proof();
    t.is((await call({ authorization: `DPoP ${TOKEN}`, dpop })).status, 200);
    const there = await fetchJson<Record<string, unknown>>(`${replica.url}/heroes`, { headers: { authorization: `DPoP ${TOKEN}`, dpop } });
    t.is(there.status, 401);
    t.is(there.body?.['error'], 'invalid_dpop_proof');
  } finally {
    await replica.close();
  }
});
