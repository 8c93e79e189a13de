/**
 * DPoP (RFC 9449) at POST /auth/token: every grant binds the access token
 * to the proof's key, refreshes keep the binding, `dpop_jkt` binds codes,
 * --require-dpop clients must send proofs, server nonces, replays refused
 * by a second replica on the same database, and bearer clients unchanged.
 */
import test from 'ava';
import { createDpopKey, dpopProof, type DpopKey } from '@heroes/test-kit';
import { addClients, addUser, RESOURCE_SERVER_CLIENT, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic, introspectAsResourceServer, postForm } from '../_helpers/http.ts';
import { pkcePair } from '../_helpers/pkce.ts';

let s: TestServer;
let key: DpopKey;
const user = { username: 'bob', password: 'hero-password-1' };
const redirectUri = 'http://127.0.0.1:9/cb';

test.before(async () => {
  s = await startTestServer();
  await addClients(s.db, [
    { id: 'conf', secret: 'conf-secret', redirectUri },
    { id: 'pub', redirectUri },
    { id: 'strict', secret: 'strict-secret', redirectUri, requireDpop: true },
    RESOURCE_SERVER_CLIENT,
  ]);
  await addUser(s.db, 'bob', 'hero-password-1');
  key = await createDpopKey();
});
test.after.always(() => s?.close());

const tokenUrl = () => `${s.url}/auth/token`;
const proof = (k = key, extra: Partial<Parameters<typeof dpopProof>[1]> = {}) => dpopProof(k, { htm: 'POST', htu: tokenUrl(), ...extra });

async function token(form: Record<string, string>, authorization: string, dpop?: string) {
  return postForm(tokenUrl(), form, { authorization, ...(dpop ? { dpop } : {}) });
}

async function authorize(clientId: string, extra: Record<string, string> = {}) {
  const { verifier, challenge } = pkcePair();
  const res = await postForm(`${s.url}/auth/code`, {
    client_id: clientId, redirect_uri: redirectUri, response_type: 'code', state: 'st', code_challenge: challenge, code_challenge_method: 'S256', ...user, ...extra,
  });
  const location = new URL(res.headers.get('location') ?? 'about:blank');
  return { code: location.searchParams.get('code') ?? '', error: location.searchParams.get('error'), verifier };
}

test('password grant with a proof: token_type DPoP, introspection cnf.jkt is the key thumbprint', async (t) => {
  const res = await token({ grant_type: 'password', ...user }, basic('conf', 'conf-secret'), await proof());
  t.is(res.status, 200, res.text);
  t.is(res.body['token_type'], 'DPoP');
  t.truthy(res.headers.get('dpop-nonce'), 'a server nonce for the next proof (section 8)');
  const info = (await introspectAsResourceServer(s.url, String(res.body['access_token']))).body;
  t.is(info['token_type'], 'DPoP');
  t.deepEqual(info['cnf'], { jkt: key.jkt });
});

test('without a proof the password grant is unchanged: bearer, no cnf', async (t) => {
  const res = await token({ grant_type: 'password', ...user }, basic('conf', 'conf-secret'));
  t.is(res.status, 200, res.text);
  t.is(res.body['token_type'], 'bearer');
  const info = (await introspectAsResourceServer(s.url, String(res.body['access_token']))).body;
  t.is(info['token_type'], 'Bearer');
  t.false('cnf' in info);
});

test('a bound refresh needs a proof of the same key, and keeps the binding', async (t) => {
  const first = await token({ grant_type: 'password', ...user }, basic('conf', 'conf-secret'), await proof());
  const refreshToken = String(first.body['refresh_token']);
  const without = await token({ grant_type: 'refresh_token', refresh_token: refreshToken }, basic('conf', 'conf-secret'));
  t.is(without.status, 400);
  t.is(without.body['error'], 'invalid_grant');
  const other = await token({ grant_type: 'refresh_token', refresh_token: refreshToken }, basic('conf', 'conf-secret'), await proof(await createDpopKey()));
  t.is(other.status, 400);
  t.is(other.body['error'], 'invalid_grant');
  const same = await token({ grant_type: 'refresh_token', refresh_token: refreshToken }, basic('conf', 'conf-secret'), await proof());
  t.is(same.status, 200, same.text);
  t.is(same.body['token_type'], 'DPoP');
  const info = (await introspectAsResourceServer(s.url, String(same.body['access_token']))).body;
  t.deepEqual(info['cnf'], { jkt: key.jkt });
});

test('a public client still gets no refresh token with DPoP', async (t) => {
  const res = await token({ grant_type: 'password', ...user }, basic('pub', ''), await proof());
  t.is(res.status, 200, res.text);
  t.is(res.body['token_type'], 'DPoP');
  t.false('refresh_token' in res.body);
});

test('authorization_code: dpop_jkt binds the code; its exchange needs a proof of that key', async (t) => {
  const bound = await authorize('pub', { dpop_jkt: key.jkt });
  t.is(bound.error, null);
  const form = { grant_type: 'authorization_code', code: bound.code, redirect_uri: redirectUri, code_verifier: bound.verifier };
  const other = await token(form, basic('pub', ''), await proof(await createDpopKey()));
  t.is(other.status, 400);
  t.is(other.body['error'], 'invalid_grant');

  const again = await authorize('pub', { dpop_jkt: key.jkt });
  const missing = await token({ ...form, code: again.code, code_verifier: again.verifier }, basic('pub', ''));
  t.is(missing.status, 400);
  t.is(missing.body['error'], 'invalid_grant');

  const third = await authorize('pub', { dpop_jkt: key.jkt });
  const ok = await token({ ...form, code: third.code, code_verifier: third.verifier }, basic('pub', ''), await proof());
  t.is(ok.status, 200, ok.text);
  t.is(ok.body['token_type'], 'DPoP');
});

test('a malformed dpop_jkt is refused at /auth/code', async (t) => {
  const res = await authorize('pub', { dpop_jkt: 'not-a-thumbprint' });
  t.is(res.error, 'invalid_request');
});

test('a confidential code exchange with a proof binds its refresh token too', async (t) => {
  const { code, verifier } = await authorize('conf');
  const res = await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier }, basic('conf', 'conf-secret'), await proof());
  t.is(res.status, 200, res.text);
  t.is(res.body['token_type'], 'DPoP');
  const refresh = await token({ grant_type: 'refresh_token', refresh_token: String(res.body['refresh_token']) }, basic('conf', 'conf-secret'));
  t.is(refresh.status, 400, 'the refresh token is bound to the key');
});

test('--require-dpop: every grant without a proof → 400 invalid_dpop_proof; with one → DPoP', async (t) => {
  const password = await token({ grant_type: 'password', ...user }, basic('strict', 'strict-secret'));
  t.is(password.status, 400);
  t.is(password.body['error'], 'invalid_dpop_proof');
  const { code, verifier } = await authorize('strict');
  const exchange = await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier }, basic('strict', 'strict-secret'));
  t.is(exchange.status, 400);
  t.is(exchange.body['error'], 'invalid_dpop_proof');
  const ok = await token({ grant_type: 'password', ...user }, basic('strict', 'strict-secret'), await proof());
  t.is(ok.status, 200, ok.text);
  t.is(ok.body['token_type'], 'DPoP');
  const refresh = await token({ grant_type: 'refresh_token', refresh_token: String(ok.body['refresh_token']) }, basic('strict', 'strict-secret'));
  t.is(refresh.status, 400);
  t.is(refresh.body['error'], 'invalid_dpop_proof');
});

test('bad proofs at the password grant → 400 invalid_dpop_proof, no token', async (t) => {
  const cases: Array<[string, string]> = [
    ['wrong htm', await proof(key, { htm: 'GET' })],
    ['wrong htu', await proof(key, { htu: `${s.url}/auth/introspect` })],
    ['wrong typ', await proof(key, { header: { typ: 'JWT' } })],
    ['not a JWT', 'not.a.jwt'],
  ];
  for (const [name, dpop] of cases) {
    const res = await token({ grant_type: 'password', ...user }, basic('conf', 'conf-secret'), dpop);
    t.is(res.status, 400, name);
    t.is(res.body['error'], 'invalid_dpop_proof', name);
    t.false('access_token' in res.body, name);
  }
  const old = await token({ grant_type: 'password', ...user }, basic('conf', 'conf-secret'), await proof(key, { iat: Math.floor(Date.now() / 1000) - 3600 }));
  t.is(old.status, 400, 'an old iat: use a server nonce instead (section 8)');
  t.is(old.body['error'], 'use_dpop_nonce');
  t.truthy(old.headers.get('dpop-nonce'));
});

test('a replayed proof is refused, also by a second server on the same database', async (t) => {
  const dpop = await proof();
  const first = await token({ grant_type: 'password', ...user }, basic('conf', 'conf-secret'), dpop);
  t.is(first.status, 200, first.text);
  const again = await token({ grant_type: 'password', ...user }, basic('conf', 'conf-secret'), dpop);
  t.is(again.status, 400);
  t.is(again.body['error'], 'invalid_grant');
  t.false('access_token' in again.body);

  const replica = await startTestServer({}, s.testDb);
  try {
    const fresh = await dpopProof(key, { htm: 'POST', htu: `${replica.url}/auth/token` });
    const atReplica = await postForm(`${replica.url}/auth/token`, { grant_type: 'password', ...user }, { authorization: basic('conf', 'conf-secret'), dpop: fresh });
    t.is(atReplica.status, 200, atReplica.text);
    const sameJti = await proof(key, { jti: JSON.parse(Buffer.from(fresh.split('.')[1]!, 'base64url').toString()).jti });
    const replayedJti = await token({ grant_type: 'password', ...user }, basic('conf', 'conf-secret'), sameJti);
    t.is(replayedJti.status, 400, 'the jti was seen by the other replica');
    t.is(replayedJti.body['error'], 'invalid_grant');
  } finally {
    await replica.server.close();
  }
});

test('server nonces: a proof with the DPoP-Nonce is accepted even when its iat is old; DPOP_REQUIRE_NONCE asks for one', async (t) => {
  const strict = await startTestServer({ dpopRequireNonce: true }, s.testDb);
  try {
    const url = `${strict.url}/auth/token`;
    const first = await postForm(url, { grant_type: 'password', ...user }, { authorization: basic('conf', 'conf-secret'), dpop: await dpopProof(key, { htm: 'POST', htu: url }) });
    t.is(first.status, 400);
    t.is(first.body['error'], 'use_dpop_nonce');
    const nonce = first.headers.get('dpop-nonce');
    t.truthy(nonce);
    const second = await postForm(url, { grant_type: 'password', ...user }, { authorization: basic('conf', 'conf-secret'), dpop: await dpopProof(key, { htm: 'POST', htu: url, nonce: nonce! }) });
    t.is(second.status, 200, second.text);
    t.is(second.body['token_type'], 'DPoP');
  } finally {
    await strict.server.close();
  }
});

test('discovery lists dpop_signing_alg_values_supported', async (t) => {
  const res = await fetch(`${s.url}/.well-known/oauth-authorization-server`);
  const body = (await res.json()) as Record<string, unknown>;
  t.deepEqual(body['dpop_signing_alg_values_supported'], ['ES256', 'EdDSA', 'Ed25519', 'PS256', 'RS256']);
});
