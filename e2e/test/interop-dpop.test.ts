/**
 * DPoP (RFC 9449) end to end with a real client library: openid-client v6's
 * DPoP support (getDPoPHandle) against the whole stack as `npm start` runs
 * it, clients registered through the real `auth` CLI, plus a second edge
 * process on the same database and authorization server (two replicas
 * behind one public URL) for the replay check.
 *
 * Through the library: password grant, authorization code + PKCE +
 * dpop_jkt, refresh, fetchProtectedResource reads and writes. By hand
 * (test-kit's dpopProof, with the same key): proofs that break one rule
 * each, and a proof replayed at the other replica.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import * as client from 'openid-client';
import { createEmptyDatabase, type TestDatabase } from '@heroes/test-kit';
import { repoRoot } from '@heroes/test-kit';
import { accessTokenHash, createDpopKey, dpopProof, spawnProcess, type DpopKey, type SpawnedProcess } from '@heroes/test-kit';
import { authCli } from './_helpers/auth-cli.ts';
import { submitLoginForm } from './_helpers/login-form.ts';
import { freePort, startStack, type RunningStack } from './_helpers/stack.ts';

const insecure = { execute: [client.allowInsecureRequests] };
const confidential = { id: 'dpop-web', secret: 'dpop-web-secret', redirectUri: 'https://web.dpop.example/cb' };
const publicClient = { id: 'dpop-spa', redirectUri: 'https://spa.dpop.example/cb' };
const strict = { id: 'dpop-strict', secret: 'dpop-strict-secret' };
const resourceServer = { id: 'resource-server', secret: 'dpop-resource-server-secret' };
const alice = { username: 'alice', password: 'alice dpop password' };

let database: TestDatabase;
let stack: RunningStack | undefined;
let replica: SpawnedProcess | undefined;
let base = '';
let replicaUrl = '';
let key: DpopKey;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'heroes-dpop-'));
fs.chmodSync(dataDir, 0o755);

test.before(async () => {
  database = await createEmptyDatabase('heroes_e2e_');
  const [port, authPort, replicaPort] = [await freePort(), await freePort(), await freePort()];
  base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: database.url,
    HEROES_DATA_DIR: dataDir,
    PORT: String(port),
    AUTH_PORT: String(authPort),
    PUBLIC_BASE_URL: base,
    RESOURCE_SERVER_CLIENT_ID: resourceServer.id,
    RESOURCE_SERVER_CLIENT_SECRET: resourceServer.secret,
    BCRYPT_COST: '4',
    LOG_LEVEL: 'warn',
  };
  stack = await startStack(env);
  // A second edge replica: same database, same authorization server, same public URL (as behind a load balancer).
  replica = await spawnProcess(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'packages/resource-server/src/main.ts')], {
    cwd: repoRoot,
    env: { ...env, PORT: String(replicaPort), HOST: '127.0.0.1', AUTH_SERVER_URL: `http://127.0.0.1:${authPort}`, LOG_LEVEL: 'info' },
    inheritEnv: false,
    ready: /resource server listening/,
    timeoutMs: 60_000,
  });
  replicaUrl = `http://127.0.0.1:${replicaPort}`;
  await authCli(env, ['add-client', '--id', confidential.id, '--secret', confidential.secret, '--redirect-uri', confidential.redirectUri]);
  await authCli(env, ['add-client', '--id', publicClient.id, '--redirect-uri', publicClient.redirectUri]);
  await authCli(env, ['add-client', '--id', strict.id, '--secret', strict.secret, '--require-dpop']);
  const res = await fetch(`${base}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(alice) });
  if (res.status !== 200) throw new Error(`POST /register: ${res.status} ${await res.text()}`);
  key = await createDpopKey();
});

test.after.always(async () => {
  await replica?.stop('SIGTERM', 30_000);
  const code = await stack?.stop('SIGTERM');
  if (code !== 0 && stack) console.error(`the stack exited with ${code}:\n${stack.output()}`);
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const discover = (id: string, secret: string | undefined, auth: client.ClientAuth) => client.discovery(new URL(base), id, secret, auth, { ...insecure, algorithm: 'oauth2' });
const confidentialConfig = () => discover(confidential.id, confidential.secret, client.ClientSecretBasic(confidential.secret));
const handle = (config: client.Configuration, k: DpopKey = key) => client.getDPoPHandle(config, { privateKey: k.privateKey, publicKey: k.publicKey });
const heroesUrl = () => new URL(`${base}/heroes`);

async function passwordWithDpop(config: client.Configuration, k: DpopKey = key) {
  return client.genericGrantRequest(config, 'password', alice, { DPoP: handle(config, k) });
}

/** The library's protected-resource call; a 401 challenge comes back as its status and challenges. */
async function fetchHeroes(config: client.Configuration, token: string, options: { DPoP?: client.DPoPHandle; method?: string; body?: string } = {}) {
  try {
    const res = await client.fetchProtectedResource(config, token, heroesUrl(), options.method ?? 'GET', options.body, options.body ? new Headers({ 'content-type': 'application/json' }) : undefined, options.DPoP ? { DPoP: options.DPoP } : undefined);
    return { status: res.status, body: (await res.json()) as unknown, challenges: undefined };
  } catch (err) {
    if (err instanceof client.WWWAuthenticateChallengeError) return { status: err.status, body: undefined, challenges: err.cause };
    throw err;
  }
}

async function logIn(t: ExecutionContext, authorizationUrl: URL): Promise<URL> {
  const { response, form } = await submitLoginForm(authorizationUrl, alice);
  t.is(response.status, 302, await response.clone().text());
  return new URL(response.headers.get('location') ?? '', form.action);
}

test.serial('discovery advertises DPoP algorithms', async (t) => {
  const config = await confidentialConfig();
  t.deepEqual(config.serverMetadata().dpop_signing_alg_values_supported, ['ES256', 'EdDSA', 'Ed25519', 'PS256', 'RS256']);
});

test.serial('password grant with getDPoPHandle → DPoP token; fetchProtectedResource reads and writes heroes', async (t) => {
  const config = await confidentialConfig();
  const DPoP = handle(config);
  const tokens = await client.genericGrantRequest(config, 'password', alice, { DPoP });
  t.is(tokens.token_type, 'dpop');
  const created = await fetchHeroes(config, tokens.access_token, { DPoP, method: 'POST', body: JSON.stringify({ name: 'Bound Hero' }) });
  t.is(created.status, 200);
  const read = await fetchHeroes(config, tokens.access_token, { DPoP });
  t.is(read.status, 200);
  t.true((read.body as Array<{ name: string }>).some((hero) => hero.name === 'Bound Hero'));
});

test.serial('refresh with the same key keeps the binding', async (t) => {
  const config = await confidentialConfig();
  const first = await passwordWithDpop(config);
  const refreshed = await client.refreshTokenGrant(config, first.refresh_token!, undefined, { DPoP: handle(config) });
  t.is(refreshed.token_type, 'dpop');
  t.is((await fetchHeroes(config, refreshed.access_token, { DPoP: handle(config) })).status, 200);
  const other = await t.throwsAsync(client.refreshTokenGrant(config, refreshed.refresh_token!, undefined, { DPoP: handle(config, await createDpopKey()) }));
  t.regex(String((other as { error?: string }).error), /invalid_grant/);
});

test.serial('authorization code + PKCE + dpop_jkt (public client) → DPoP token', async (t) => {
  const config = await discover(publicClient.id, undefined, client.None());
  const DPoP = handle(config);
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const authorizationUrl = client.buildAuthorizationUrl(config, {
    redirect_uri: publicClient.redirectUri,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    dpop_jkt: await DPoP.calculateThumbprint(),
  });
  const callback = await logIn(t, authorizationUrl);
  const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }, undefined, { DPoP });
  t.is(tokens.token_type, 'dpop');
  t.is(tokens.refresh_token, undefined, 'public clients get no refresh token');
  t.is((await fetchHeroes(config, tokens.access_token, { DPoP })).status, 200);
});

test.serial('a code bound with dpop_jkt cannot be exchanged with another key', async (t) => {
  const config = await discover(publicClient.id, undefined, client.None());
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const authorizationUrl = client.buildAuthorizationUrl(config, {
    redirect_uri: publicClient.redirectUri, code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state, dpop_jkt: key.jkt,
  });
  const callback = await logIn(t, authorizationUrl);
  const err = await t.throwsAsync(client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }, undefined, { DPoP: handle(config, await createDpopKey()) }));
  t.is((err as { error?: string }).error, 'invalid_grant');
});

test.serial('a copied DPoP token is useless: as Bearer, or with another key, 401', async (t) => {
  const config = await confidentialConfig();
  const tokens = await passwordWithDpop(config);
  const asBearer = await fetchHeroes(config, tokens.access_token);
  t.is(asBearer.status, 401);
  t.is(asBearer.challenges?.[0]?.scheme, 'dpop');
  t.is(asBearer.challenges?.[0]?.parameters.error, 'invalid_token');
  const otherKey = await fetchHeroes(config, tokens.access_token, { DPoP: handle(config, await createDpopKey()) });
  t.is(otherKey.status, 401);
  t.is(otherKey.challenges?.[0]?.parameters.error, 'invalid_dpop_proof');
});

test.serial('--require-dpop: without a proof 400 invalid_dpop_proof, with one a DPoP token', async (t) => {
  const config = await discover(strict.id, strict.secret, client.ClientSecretBasic(strict.secret));
  const err = await t.throwsAsync(client.genericGrantRequest(config, 'password', alice));
  t.is((err as { error?: string }).error, 'invalid_dpop_proof');
  t.is((await passwordWithDpop(config)).token_type, 'dpop');
});

test.serial('each proof check at the edge, by hand: htm, htu, old iat, missing ath, another key, replay at the other replica', async (t) => {
  const config = await confidentialConfig();
  const { access_token: token } = await passwordWithDpop(config);
  const htu = `${base}/heroes`;
  const get = (url: string, dpop: string) => fetch(url, { headers: { authorization: `DPoP ${token}`, dpop } });
  const cases: Array<[string, string]> = [
    ['wrong htm', await dpopProof(key, { htm: 'POST', htu, accessToken: token })],
    ['wrong htu', await dpopProof(key, { htm: 'GET', htu: `${base}/heroes/1`, accessToken: token })],
    ['old iat', await dpopProof(key, { htm: 'GET', htu, accessToken: token, iat: Math.floor(Date.now() / 1000) - 600 })],
    ['missing ath', await dpopProof(key, { htm: 'GET', htu })],
    ['wrong ath', await dpopProof(key, { htm: 'GET', htu, ath: accessTokenHash('x') })],
    ['another key', await dpopProof(await createDpopKey(), { htm: 'GET', htu, accessToken: token })],
  ];
  for (const [name, dpop] of cases) {
    const res = await get(htu, dpop);
    t.is(res.status, 401, name);
    t.regex(res.headers.get('www-authenticate') ?? '', /^DPoP .*error="invalid_dpop_proof"/, name);
  }
  const proof = await dpopProof(key, { htm: 'GET', htu, accessToken: token });
  t.is((await get(htu, proof)).status, 200, 'first use, at the first replica');
  const replayed = await get(`${replicaUrl}/heroes`, proof);
  t.is(replayed.status, 401, 'the same proof at the second replica');
  t.regex(replayed.headers.get('www-authenticate') ?? '', /already used/);
  const fresh = await dpopProof(key, { htm: 'GET', htu, accessToken: token });
  t.is((await get(`${replicaUrl}/heroes`, fresh)).status, 200, 'the other replica serves a fresh proof for the public URL');
});

test.serial('bearer clients are unchanged: no proof, bearer token, Bearer requests', async (t) => {
  const config = await confidentialConfig();
  const tokens = await client.genericGrantRequest(config, 'password', alice);
  t.is(tokens.token_type, 'bearer');
  t.is((await fetchHeroes(config, tokens.access_token)).status, 200);
});
