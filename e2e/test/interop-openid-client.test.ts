/**
 * Interoperability with a real OAuth 2.0 client library: openid-client v6
 * (panva; built on oauth4webapi), against the whole stack started as
 * `npm start` does (scripts/start.ts: migrations, then the authorization
 * server and the resource server as two processes) on a fresh PostgreSQL
 * database, with clients registered through the real `auth` CLI.
 *
 * Every OAuth request is made by the library (discovery, password grant via
 * genericGrantRequest, refresh, authorization code + PKCE, revocation,
 * introspection, protected resource calls). Hand-made requests only where the
 * library has no API: POST /register, and the login page (a browser's job).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import * as client from 'openid-client';
import { authCli } from './_helpers/auth-cli.ts';
import { createEmptyDatabase } from '@heroes/test-kit';
import { waitFor } from '@heroes/test-kit';
import { submitLoginForm } from './_helpers/login-form.ts';
import { freePort, startStack, type RunningStack } from './_helpers/stack.ts';
import type { TestDatabase } from '@heroes/test-kit';

const insecure = { execute: [client.allowInsecureRequests] };

/** A confidential client whose secret needs URL-encoding inside HTTP Basic (RFC 6749 2.3.1). */
const confidential = {
  id: 'interop-web',
  secret: "s3cr3t:+/%-._~*'() &=?#",
  redirectUri: 'https://web.interop.example/callback',
};
/** A public client (no secret): PKCE required in the code flow, no refresh tokens. */
const publicClient = { id: 'interop-spa', redirectUri: 'https://spa.interop.example/cb' };
/** A client registered with allowed scopes. */
const scoped = { id: 'interop-scoped', secret: 'scoped-secret', redirectUri: 'https://scoped.interop.example/cb', scopes: 'heroes:read heroes:write' };
/** A confidential client whose secret has every printable ASCII special character (RFC 6749 A.2 VSCHAR, %x20-7E). */
const vscharClient = { id: 'interop-vschar', secret: ` !"#$%&'()*+,-./:;<=>?@[\\]^_\`{|}~Az09` };
/** A secret with a non-ASCII character: outside VSCHAR, so `auth add-client` refuses it. */
const utf8Client = { id: 'interop-utf8', secret: 's3cr3t:+/%é' };
/** A client id with characters the library URL-encodes inside HTTP Basic (the CLI allows printable ASCII but ':'). */
const oddId = { id: 'interop app+1%2F~', secret: 'odd secret' };
/** The resource server's own client (introspection). */
const resourceServer = { id: 'resource-server', secret: 'interop-resource-server-secret' };
const alice = { username: 'alice', password: 'alice pässword: +&=%' };
const bob = { username: 'bob', password: 'bob-password' };

let database: TestDatabase;
let stack: RunningStack | undefined;
let base = '';
let env: NodeJS.ProcessEnv = {};
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'heroes-interop-'));
fs.chmodSync(dataDir, 0o755);

test.before(async () => {
  database = await createEmptyDatabase('heroes_e2e_');
  const port = await freePort();
  const authPort = await freePort();
  base = `http://127.0.0.1:${port}`;
  env = {
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
  await authCli(env, ['add-client', '--id', confidential.id, '--secret', confidential.secret, '--redirect-uri', confidential.redirectUri]);
  await authCli(env, ['add-client', '--id', publicClient.id, '--redirect-uri', publicClient.redirectUri]);
  await authCli(env, ['add-client', '--id', scoped.id, '--secret', scoped.secret, '--redirect-uri', scoped.redirectUri, '--allowed-scopes', scoped.scopes]);
  await authCli(env, ['add-client', '--id', vscharClient.id, '--secret', vscharClient.secret]);
  await authCli(env, ['add-client', '--id', oddId.id, '--secret', oddId.secret]);
  for (const user of [alice, bob]) {
    // No library API for registration: the service's own JSON route.
    const res = await fetch(`${base}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user) });
    if (res.status !== 200) throw new Error(`POST /register ${user.username}: ${res.status} ${await res.text()}`);
  }
});

test.after.always(async () => {
  const code = await stack?.stop('SIGTERM');
  if (code !== 0 && stack) console.error(`the stack exited with ${code}:\n${stack.output()}`);
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------- helpers

function discover(clientId: string, secret: string | undefined, auth: client.ClientAuth, algorithm: 'oidc' | 'oauth2' = 'oauth2') {
  return client.discovery(new URL(base), clientId, secret, auth, { ...insecure, algorithm });
}
const confidentialConfig = () => discover(confidential.id, confidential.secret, client.ClientSecretBasic(confidential.secret));
const publicConfig = () => discover(publicClient.id, undefined, client.None());
const resourceServerConfig = () => discover(resourceServer.id, resourceServer.secret, client.ClientSecretBasic(resourceServer.secret));

interface HeroesAnswer {
  status: number;
  body?: unknown;
  challenges?: client.WWWAuthenticateChallenge[];
}

/** GET {base}/heroes through the library; a 401 with WWW-Authenticate comes back as its challenges. */
async function getHeroes(config: client.Configuration, accessToken: string): Promise<HeroesAnswer> {
  try {
    const res = await client.fetchProtectedResource(config, accessToken, new URL(`${base}/heroes`), 'GET');
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  } catch (err) {
    if (err instanceof client.WWWAuthenticateChallengeError) return { status: err.status, challenges: err.cause };
    throw err;
  }
}

function password(config: client.Configuration, user: { username: string; password: string }, scope?: string) {
  return client.genericGrantRequest(config, 'password', { username: user.username, password: user.password, ...(scope ? { scope } : {}) });
}

/** Endpoints a client calls with POST (RFC 6749 3.2, RFC 7009 2.1, RFC 7662 2.1, RFC 9126 2, RFC 7591 3, RFC 8628 3.1). */
const POST_ENDPOINTS = new Set(['token_endpoint', 'revocation_endpoint', 'introspection_endpoint', 'pushed_authorization_request_endpoint', 'registration_endpoint', 'device_authorization_endpoint', 'backchannel_authentication_endpoint']);

async function expectOAuthError(t: ExecutionContext, promise: Promise<unknown>, error: string, status?: number): Promise<client.ResponseBodyError | undefined> {
  const err = await t.throwsAsync(promise, { instanceOf: client.ResponseBodyError });
  if (!err) return undefined;
  t.is(err.error, error, `${err.status} ${JSON.stringify(err.cause)}`);
  if (status !== undefined) t.is(err.status, status);
  return err;
}

/**
 * A failed client authentication as openid-client surfaces it. When the
 * client used the Authorization header (client_secret_basic), RFC 6749 5.2
 * requires 401 with a WWW-Authenticate challenge of that scheme, and
 * oauth4webapi then throws WWWAuthenticateChallengeError (it checks
 * challenges before the body): the error code is read from the challenge's
 * `error` parameter and from the JSON body. Without the header the library
 * throws ResponseBodyError with `error`.
 */
async function expectInvalidClient(t: ExecutionContext, promise: Promise<unknown>, via: 'header' | 'body'): Promise<void> {
  if (via === 'body') {
    await expectOAuthError(t, promise, 'invalid_client');
    return;
  }
  const err = await t.throwsAsync(promise, { instanceOf: client.WWWAuthenticateChallengeError });
  if (!err) return;
  t.is(err.status, 401);
  const challenge = err.cause[0];
  t.is(challenge?.scheme, 'basic', JSON.stringify(err.cause));
  t.is(challenge?.parameters.error, 'invalid_client', JSON.stringify(err.cause));
  const body = (await err.response.json()) as { error?: string };
  t.is(body.error, 'invalid_client');
}

interface CodeFlow {
  authorizationUrl: URL;
  verifier: string;
  state: string;
}

async function startCodeFlow(config: client.Configuration, redirectUri: string, scope?: string): Promise<CodeFlow> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const authorizationUrl = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    ...(scope ? { scope } : {}),
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  return { authorizationUrl, verifier, state };
}

/** The whole browser part: login page, form submitted, the 302 Location. */
async function logIn(t: ExecutionContext, flow: CodeFlow, user: { username: string; password: string }): Promise<URL> {
  const { page, form, response } = await submitLoginForm(flow.authorizationUrl, { username: user.username, password: user.password });
  t.is(page.status, 200);
  t.regex(page.headers.get('content-type') ?? '', /^text\/html/);
  t.true(form.fields.some(([name]) => name === 'username'), 'the form has a username field');
  t.true(form.fields.some(([name]) => name === 'password'), 'the form has a password field');
  t.is(response.status, 302, await response.clone().text());
  const location = response.headers.get('location');
  if (!location) throw new Error('no Location on the login answer');
  return new URL(location, form.action);
}

/** Asks /heroes until the revoked token is no longer served (how fast: `npm run bench`, section `revocation`). */
function waitFor401(config: client.Configuration, accessToken: string): Promise<HeroesAnswer> {
  return waitFor(async () => {
    const answer = await getHeroes(config, accessToken);
    return answer.status === 401 && answer;
  }, { intervalMs: 50, message: 'the revoked token was never refused' });
}

// ---------------------------------------------------------------- 1. discovery

for (const algorithm of ['oauth2', 'oidc'] as const) {
  test.serial(`discovery (${algorithm === 'oauth2' ? 'RFC 8414 oauth-authorization-server' : 'openid-configuration'}) is truthful`, async (t) => {
    const config = await discover(confidential.id, confidential.secret, client.ClientSecretBasic(confidential.secret), algorithm);
    const meta = config.serverMetadata();
    t.is(meta.issuer, base);
    t.is(meta.token_endpoint, `${base}/auth/token`);
    t.is(meta.authorization_endpoint, `${base}/auth/code`);
    t.is(meta.revocation_endpoint, `${base}/auth/revoke`);
    t.is(meta.introspection_endpoint, `${base}/auth/introspect`);
    t.deepEqual(meta.response_types_supported, ['code']);
    t.true(meta.code_challenge_methods_supported?.includes('S256'));
    t.false(meta.code_challenge_methods_supported?.includes('plain') ?? false, 'plain PKCE is not supported by /auth/code, so it must not be advertised');
    t.deepEqual(meta.response_modes_supported, ['query']);
    t.true(meta.token_endpoint_auth_methods_supported?.includes('client_secret_basic'));
    t.true(meta.token_endpoint_auth_methods_supported?.includes('none'));

    const grants = meta.grant_types_supported ?? [];
    t.true(grants.includes('password'), JSON.stringify(grants));
    t.true(grants.includes('authorization_code'), JSON.stringify(grants));
    t.true(grants.includes('refresh_token'), JSON.stringify(grants));
    t.true(grants.includes('client_credentials'), JSON.stringify(grants));
    for (const notOurs of ['implicit', 'urn:ietf:params:oauth:grant-type:device_code', 'urn:openid:params:grant-type:ciba']) {
      t.false(grants.includes(notOurs), `${notOurs} is advertised but not supported`);
    }
    // Every advertised grant type is understood by the token endpoint (an
    // error for the missing parameters, never unsupported_grant_type).
    for (const grant of grants) {
      const err = await t.throwsAsync(client.genericGrantRequest(config, grant, {}), { instanceOf: client.ResponseBodyError }, grant);
      t.not(err?.error, 'unsupported_grant_type', `advertised grant ${grant}`);
    }

    // Every advertised endpoint lives under the issuer and exists: called with
    // the method its specification uses (POST for the client-authenticated
    // endpoints, GET otherwise), it never answers 404.
    for (const [key, value] of Object.entries(meta)) {
      if (!(key.endsWith('_endpoint') || key === 'jwks_uri') || typeof value !== 'string') continue;
      t.true(value.startsWith(`${base}/`), `${key} = ${value}`);
      const post = POST_ENDPOINTS.has(key);
      const res = await fetch(value, {
        method: post ? 'POST' : 'GET',
        redirect: 'manual',
        ...(post ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' } : {}),
      });
      t.not(res.status, 404, `${post ? 'POST' : 'GET'} ${key} ${value} answers 404`);
    }
    if (meta.authorization_response_iss_parameter_supported !== true) {
      t.log('authorization_response_iss_parameter_supported is not advertised');
    }
  });
}

// ---------------------------------------------------------------- 2. password grant

test.serial('password grant, confidential client with client_secret_basic (URL-encoded secret) → /heroes 200', async (t) => {
  const config = await confidentialConfig();
  const tokens = await password(config, alice);
  t.is(tokens.token_type, 'bearer');
  t.true(typeof tokens.access_token === 'string' && tokens.access_token.length >= 43);
  t.true(Number.isInteger(tokens.expires_in) && tokens.expires_in! > 0);
  t.is(typeof tokens.refresh_token, 'string', 'a client with a secret gets a refresh token');
  t.true((tokens.expiresIn() ?? 0) > 0);
  const heroes = await getHeroes(config, tokens.access_token);
  t.is(heroes.status, 200);
  t.true(Array.isArray(heroes.body));
});

test.serial('password grant, confidential client with client_secret_post (advertised) → /heroes 200', async (t) => {
  const config = await discover(confidential.id, confidential.secret, client.ClientSecretPost(confidential.secret));
  t.true(config.serverMetadata().token_endpoint_auth_methods_supported?.includes('client_secret_post') ?? true);
  const tokens = await password(config, alice);
  t.is(tokens.token_type, 'bearer');
  t.is((await getHeroes(config, tokens.access_token)).status, 200);
});

test.serial('password grant, public client with None() (client_id in the body) → /heroes 200, no refresh token', async (t) => {
  const config = await publicConfig();
  const tokens = await password(config, bob);
  t.is(tokens.token_type, 'bearer');
  t.is(tokens.refresh_token, undefined, 'no refresh token for a client without a secret');
  const heroes = await getHeroes(config, tokens.access_token);
  t.is(heroes.status, 200);
});

test.serial('password grant with scope, scoped client → scope echoed, /heroes 200', async (t) => {
  const config = await discover(scoped.id, scoped.secret, client.ClientSecretBasic(scoped.secret));
  const tokens = await password(config, alice, 'heroes:read');
  t.is(tokens.scope, 'heroes:read');
  t.is((await getHeroes(config, tokens.access_token)).status, 200);
  await expectOAuthError(t, password(config, alice, 'heroes:admin'), 'invalid_scope', 400);
});

// RFC 6749 Appendix A.2: client-secret = *VSCHAR (%x20-7E). A secret with
// every special VSCHAR character works in both methods (the library
// URL-encodes it, RFC 6749 2.3.1); a non-ASCII one is refused at registration.
for (const [method, auth] of [['client_secret_post', client.ClientSecretPost], ['client_secret_basic', client.ClientSecretBasic]] as const) {
  test.serial(`a client secret with every special VSCHAR character works with ${method}`, async (t) => {
    const config = await discover(vscharClient.id, vscharClient.secret, auth(vscharClient.secret));
    const tokens = await password(config, alice);
    t.is(tokens.token_type, 'bearer');
    t.is((await getHeroes(config, tokens.access_token)).status, 200);
  });
}

test.serial('`auth add-client` refuses a non-ASCII client secret (outside VSCHAR) with one line, exit 1, nothing written', async (t) => {
  const err = await t.throwsAsync(authCli(env, ['add-client', '--id', utf8Client.id, '--secret', utf8Client.secret]));
  const failure = err as Error & { code?: number; stdout?: string; stderr?: string };
  t.is(failure.code, 1);
  t.is(failure.stdout, '');
  t.regex(failure.stderr ?? '', /^Client secret must contain only printable ASCII characters[^\n]*\n$/);
  t.false((failure.stderr ?? '').includes(utf8Client.secret), 'the secret is not echoed');
  const { stdout } = await authCli(env, ['list-clients']);
  t.false(stdout.includes(utf8Client.id), stdout);
  // The server answers such credentials as a failed client authentication, not as a malformed header.
  await expectInvalidClient(t, password(await discover(utf8Client.id, utf8Client.secret, client.ClientSecretBasic(utf8Client.secret)), alice), 'header');
});

test.serial('password grant, client id with characters that need URL-encoding (Basic and post)', async (t) => {
  for (const auth of [client.ClientSecretBasic(oddId.secret), client.ClientSecretPost(oddId.secret)]) {
    const config = await discover(oddId.id, oddId.secret, auth);
    const tokens = await password(config, bob);
    t.is(tokens.token_type, 'bearer');
    t.is((await client.tokenIntrospection(config, tokens.access_token)).client_id, oddId.id);
  }
});

// ---------------------------------------------------------------- 3. refresh

test.serial('refresh token grant → a new access token that works', async (t) => {
  const config = await confidentialConfig();
  const first = await password(config, alice);
  const refreshed = await client.refreshTokenGrant(config, first.refresh_token!);
  t.is(refreshed.token_type, 'bearer');
  t.not(refreshed.access_token, first.access_token);
  t.true((refreshed.expires_in ?? 0) > 0);
  t.is((await getHeroes(config, refreshed.access_token)).status, 200);
  t.not(refreshed.refresh_token, first.refresh_token, 'rotated (RFC 9700 section 4.14.2)');

  // Bound to its client: another confidential client cannot use it.
  const other = await discover(scoped.id, scoped.secret, client.ClientSecretBasic(scoped.secret));
  await expectOAuthError(t, client.refreshTokenGrant(other, refreshed.refresh_token!), 'invalid_grant', 400);
});

// ---------------------------------------------------------------- 4. authorization code + PKCE

test.serial('authorization code + PKCE, confidential client: login form → 302 with iss → token → /heroes 200', async (t) => {
  const config = await confidentialConfig();
  t.is(config.serverMetadata().authorization_response_iss_parameter_supported, true);
  const flow = await startCodeFlow(config, confidential.redirectUri);
  t.is(flow.authorizationUrl.origin + flow.authorizationUrl.pathname, `${base}/auth/code`);
  const callback = await logIn(t, flow, alice);
  t.is(callback.origin + callback.pathname, confidential.redirectUri);
  t.is(callback.searchParams.get('state'), flow.state);
  t.is(callback.searchParams.get('iss'), base, 'RFC 9207 iss on the redirect');

  const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
  t.is(tokens.token_type, 'bearer');
  t.is(typeof tokens.refresh_token, 'string');
  t.is((await getHeroes(config, tokens.access_token)).status, 200);

  // The code is single-use.
  await expectOAuthError(t, client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state }), 'invalid_grant', 400);
});

test.serial('authorization code + PKCE, public client with None() → token → /heroes 200', async (t) => {
  const config = await publicConfig();
  const flow = await startCodeFlow(config, publicClient.redirectUri);
  const callback = await logIn(t, flow, bob);
  const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
  t.is(tokens.token_type, 'bearer');
  t.is(tokens.refresh_token, undefined);
  t.is((await getHeroes(config, tokens.access_token)).status, 200);
});

test.serial('authorization code + PKCE with a scope, and the openid-configuration discovery', async (t) => {
  const config = await discover(scoped.id, scoped.secret, client.ClientSecretBasic(scoped.secret), 'oidc');
  const flow = await startCodeFlow(config, scoped.redirectUri, 'heroes:read');
  const callback = await logIn(t, flow, alice);
  const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
  t.is(tokens.scope, 'heroes:read');
  t.is((await getHeroes(config, tokens.access_token)).status, 200);
});

test.serial('a heroes:read token may read but not write: 403 insufficient_scope challenge through the library', async (t) => {
  const config = await discover(scoped.id, scoped.secret, client.ClientSecretBasic(scoped.secret));
  const flow = await startCodeFlow(config, scoped.redirectUri, 'heroes:read');
  const tokens = await client.authorizationCodeGrant(config, await logIn(t, flow, alice), { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
  const err = await t.throwsAsync(
    client.fetchProtectedResource(config, tokens.access_token, new URL(`${base}/heroes`), 'POST', JSON.stringify({ name: 'Read Only' }), new Headers({ 'content-type': 'application/json' })),
    { instanceOf: client.WWWAuthenticateChallengeError },
  );
  t.is(err?.status, 403);
  t.is(err?.cause[0]?.scheme, 'bearer');
  t.is(err?.cause[0]?.parameters.error, 'insufficient_scope');

  const writer = await password(config, alice, 'heroes:read heroes:write');
  const created = await client.fetchProtectedResource(config, writer.access_token, new URL(`${base}/heroes`), 'POST', JSON.stringify({ name: 'Interop Hero' }), new Headers({ 'content-type': 'application/json' }));
  t.is(created.status, 200);
  t.like((await created.json()) as object, { name: 'Interop Hero' });
});

// Both discovery documents advertise OpenID Connect ("openid" in
// scopes_supported, id_token_signing_alg_values_supported, ...): the code
// flow with scope=openid and a nonce must then yield an ID token (OpenID
// Connect Core 3.1.3.3), or openid must not be advertised.
test.serial('an advertised "openid" scope yields an ID token (or is not advertised)', async (t) => {
  const config = await discover(confidential.id, confidential.secret, client.ClientSecretBasic(confidential.secret), 'oidc');
  const meta = config.serverMetadata();
  if (!meta.scopes_supported?.includes('openid')) {
    t.is(meta.id_token_signing_alg_values_supported, undefined, 'no ID token metadata without the openid scope');
    return;
  }
  const nonce = client.randomNonce();
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const authorizationUrl = client.buildAuthorizationUrl(config, {
    redirect_uri: confidential.redirectUri,
    scope: 'openid',
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  const callback = await logIn(t, { authorizationUrl, verifier, state }, alice);
  const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
  t.is(typeof tokens.id_token, 'string');
  t.is(tokens.claims()?.iss, base);
});

test.serial('a wrong PKCE verifier is refused at the token endpoint', async (t) => {
  const config = await confidentialConfig();
  const flow = await startCodeFlow(config, confidential.redirectUri);
  const callback = await logIn(t, flow, alice);
  await expectOAuthError(t, client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: client.randomPKCECodeVerifier(), expectedState: flow.state }), 'invalid_grant', 400);
});

test.serial('an error redirect from /auth/code carries state and iss, and the library surfaces the OAuth error', async (t) => {
  const config = await discover(scoped.id, scoped.secret, client.ClientSecretBasic(scoped.secret));
  const flow = await startCodeFlow(config, scoped.redirectUri, 'heroes:admin');
  const res = await fetch(flow.authorizationUrl, { redirect: 'manual' });
  t.is(res.status, 302, await res.clone().text());
  const callback = new URL(res.headers.get('location')!, flow.authorizationUrl);
  t.is(callback.searchParams.get('iss'), base);
  const err = await t.throwsAsync(client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state }), {
    instanceOf: client.AuthorizationResponseError,
  });
  t.is(err?.error, 'invalid_scope');
});

// ---------------------------------------------------------------- 5. revocation and introspection

test.serial('introspection as the resource server client: active with client_id, username, scope, exp', async (t) => {
  const config = await discover(scoped.id, scoped.secret, client.ClientSecretBasic(scoped.secret));
  const tokens = await password(config, alice, 'heroes:read heroes:write');
  const rs = await resourceServerConfig();
  const info = await client.tokenIntrospection(rs, tokens.access_token);
  t.is(info.active, true);
  t.is(info.client_id, scoped.id);
  t.is(info.username, alice.username);
  t.is(info.scope, 'heroes:read heroes:write');
  t.true(typeof info.exp === 'number' && info.exp > Date.now() / 1000);
  t.deepEqual(await client.tokenIntrospection(rs, 'not-a-token'), { active: false });
});

test.serial('introspection by a normal client: its own token yes, another client\'s token not revealed', async (t) => {
  const config = await confidentialConfig();
  const own = await password(config, alice);
  const info = await client.tokenIntrospection(config, own.access_token);
  t.is(info.active, true);
  t.is(info.client_id, confidential.id);

  const other = await password(await discover(scoped.id, scoped.secret, client.ClientSecretBasic(scoped.secret)), bob);
  const foreign = await client.tokenIntrospection(config, other.access_token);
  t.is(foreign.active, false, JSON.stringify(foreign));
});

test.serial('revocation of an access token: /heroes answers 401; introspection says inactive; its refresh token dies too', async (t) => {
  const config = await confidentialConfig();
  const tokens = await password(config, alice);
  t.is((await getHeroes(config, tokens.access_token)).status, 200, 'the token is cached as valid by the resource server');
  await client.tokenRevocation(config, tokens.access_token);
  const answer = await waitFor401(config, tokens.access_token);
  t.is(answer.status, 401);
  t.is(answer.challenges?.[0]?.scheme, 'bearer');
  t.is(answer.challenges?.[0]?.parameters.error, 'invalid_token');
  t.is((await client.tokenIntrospection(await resourceServerConfig(), tokens.access_token)).active, false);
  await expectOAuthError(t, client.refreshTokenGrant(config, tokens.refresh_token!), 'invalid_grant', 400);
});

test.serial('revocation by a public client of its own token', async (t) => {
  const config = await publicConfig();
  const tokens = await password(config, bob);
  t.is((await getHeroes(config, tokens.access_token)).status, 200);
  await client.tokenRevocation(config, tokens.access_token);
  const answer = await waitFor401(config, tokens.access_token);
  t.is(answer.status, 401);
});

test.serial('revocation of a refresh token: the refresh grant then fails', async (t) => {
  const config = await confidentialConfig();
  const tokens = await password(config, alice);
  await client.tokenRevocation(config, tokens.refresh_token!, { token_type_hint: 'refresh_token' });
  await expectOAuthError(t, client.refreshTokenGrant(config, tokens.refresh_token!), 'invalid_grant', 400);
});

// ---------------------------------------------------------------- 6. errors as the library surfaces them

test.serial('wrong password → ResponseBodyError invalid_grant (same for an unknown user)', async (t) => {
  const config = await confidentialConfig();
  await expectOAuthError(t, password(config, { username: alice.username, password: 'wrong' }), 'invalid_grant', 400);
  await expectOAuthError(t, password(config, { username: 'nobody', password: 'wrong' }), 'invalid_grant', 400);
  await expectOAuthError(t, password(await publicConfig(), { username: bob.username, password: 'wrong' }), 'invalid_grant', 400);
});

test.serial('wrong client secret → invalid_client (Basic: 401 challenge; post: ResponseBodyError)', async (t) => {
  await expectInvalidClient(t, password(await discover(confidential.id, 'wrong', client.ClientSecretBasic('wrong')), alice), 'header');
  await expectInvalidClient(t, password(await discover(confidential.id, 'wrong', client.ClientSecretPost('wrong')), alice), 'body');
  // The secret minus its last character, and with a different encoding-sensitive character.
  await expectInvalidClient(t, password(await discover(confidential.id, confidential.secret.slice(0, -1), client.ClientSecretBasic(confidential.secret.slice(0, -1))), alice), 'header');
  const plusForSpace = confidential.secret.replace(' ', '+');
  await expectInvalidClient(t, password(await discover(confidential.id, plusForSpace, client.ClientSecretBasic(plusForSpace)), alice), 'header');
  // The right secret after wrong ones still works (no poisoned cache).
  t.is((await password(await confidentialConfig(), alice)).token_type, 'bearer');
});

test.serial('unknown client, a confidential client posing as public, a public client inventing a secret → invalid_client', async (t) => {
  await expectInvalidClient(t, password(await discover('no-such-client', 'x', client.ClientSecretBasic('x')), alice), 'header');
  await expectInvalidClient(t, password(await discover('no-such-client', undefined, client.None()), alice), 'body');
  await expectInvalidClient(t, password(await discover(confidential.id, undefined, client.None()), alice), 'body');
  await expectInvalidClient(t, password(await discover(publicClient.id, 'invented', client.ClientSecretBasic('invented')), alice), 'header');
});

test.serial('wrong client secret at the revocation and introspection endpoints → invalid_client', async (t) => {
  const good = await password(await confidentialConfig(), alice);
  const wrong = await discover(confidential.id, 'wrong', client.ClientSecretBasic('wrong'));
  await expectInvalidClient(t, client.tokenRevocation(wrong, good.access_token), 'header');
  await expectInvalidClient(t, client.tokenIntrospection(wrong, good.access_token), 'header');
  t.is((await getHeroes(await confidentialConfig(), good.access_token)).status, 200, 'the token was not revoked');
});

test.serial('a token that was never issued → 401 with a Bearer invalid_token challenge', async (t) => {
  const answer = await getHeroes(await confidentialConfig(), 'x'.repeat(43));
  t.is(answer.status, 401);
  t.is(answer.challenges?.[0]?.parameters.error, 'invalid_token');
});
