/**
 * Machine clients and audience-bound tokens with a real OAuth client library
 * (openid-client v6), against the whole stack started as `npm start` does,
 * clients registered through the real `auth` CLI (docs/oauth.md):
 * - client credentials (RFC 6749 section 4.4) with and without `resource`
 *   (RFC 8707), the token used on the hero API, introspected, revoked;
 * - grant types per client: refused grants are `unauthorized_client`;
 * - a code flow and a refresh that name the resource;
 * - discovery as an MCP client does it: an unauthenticated call → 401 with
 *   `resource_metadata` (RFC 9728 section 5.1) → the protected resource
 *   metadata → the authorization server's metadata (RFC 8414) → a token for
 *   that resource → the call succeeds.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import * as client from 'openid-client';
import { createEmptyDatabase, type TestDatabase } from '@heroes/test-kit';
import { authCli } from './_helpers/auth-cli.ts';
import { submitLoginForm } from './_helpers/login-form.ts';
import { freePort, startStack, type RunningStack } from './_helpers/stack.ts';

const insecure = { execute: [client.allowInsecureRequests] };
const machine = { id: 'interop-machine', secret: 'machine-secret-1' };
const reader = { id: 'interop-reader', secret: 'reader-secret-1' };
const web = { id: 'interop-web-rs', secret: 'web-secret-1', redirectUri: 'https://web.interop.example/callback' };
const resourceServer = { id: 'resource-server', secret: 'interop-resource-server-secret' };
const carol = { username: 'carol', password: 'carol password 1' };

let database: TestDatabase;
let stack: RunningStack | undefined;
let base = '';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'heroes-machine-'));
fs.chmodSync(dataDir, 0o755);

test.before(async () => {
  database = await createEmptyDatabase('heroes_e2e_');
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    DATABASE_URL: database.url,
    HEROES_DATA_DIR: dataDir,
    PORT: String(port),
    AUTH_PORT: String(await freePort()),
    PUBLIC_BASE_URL: base,
    RESOURCE_SERVER_CLIENT_ID: resourceServer.id,
    RESOURCE_SERVER_CLIENT_SECRET: resourceServer.secret,
    BCRYPT_COST: '4',
    LOG_LEVEL: 'warn',
  };
  stack = await startStack(env);
  await authCli(env, ['add-client', '--id', machine.id, '--secret', machine.secret, '--grant-types', 'client_credentials']);
  await authCli(env, ['add-client', '--id', reader.id, '--secret', reader.secret, '--grant-types', 'client_credentials', '--allowed-scopes', 'heroes:read']);
  await authCli(env, ['add-client', '--id', web.id, '--secret', web.secret, '--redirect-uri', web.redirectUri, '--grant-types', 'authorization_code refresh_token']);
  const res = await fetch(`${base}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(carol) });
  if (res.status !== 200) throw new Error(`POST /register: ${res.status} ${await res.text()}`);
});

test.after.always(async () => {
  const code = await stack?.stop('SIGTERM');
  if (code !== 0 && stack) console.error(`the stack exited with ${code}:\n${stack.output()}`);
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const discover = (id: string, secret: string) => client.discovery(new URL(base), id, secret, client.ClientSecretBasic(secret), insecure);

async function heroes(config: client.Configuration, accessToken: string, method = 'GET', body?: string): Promise<number> {
  try {
    const res = await client.fetchProtectedResource(config, accessToken, new URL(`${base}/heroes`), method, body, body ? new Headers({ 'content-type': 'application/json' }) : undefined);
    await res.arrayBuffer();
    return res.status;
  } catch (err) {
    if (err instanceof client.WWWAuthenticateChallengeError) return err.status;
    throw err;
  }
}

async function introspect(accessToken: string): Promise<client.IntrospectionResponse> {
  return client.tokenIntrospection(await discover(resourceServer.id, resourceServer.secret), accessToken);
}

test('discovery lists client_credentials among the grants served', async (t) => {
  const config = await discover(machine.id, machine.secret);
  t.true(config.serverMetadata().grant_types_supported?.includes('client_credentials'));
});

test('clientCredentialsGrant without resource: a token of the client, no user, for the hero API', async (t) => {
  const config = await discover(machine.id, machine.secret);
  const tokens = await client.clientCredentialsGrant(config);
  t.is(tokens.token_type, 'bearer');
  t.is(tokens.scope, 'heroes:read heroes:write');
  t.is(tokens.refresh_token, undefined);
  t.is(await heroes(config, tokens.access_token), 200);
  t.is(await heroes(config, tokens.access_token, 'POST', JSON.stringify({ name: 'Machine Made' })), 200);
  const info = await introspect(tokens.access_token);
  t.true(info.active);
  t.is(info.client_id, machine.id);
  t.is(info.sub, undefined);
  t.is(info['username'], undefined);
  t.is(info.aud, `${base}/`);

  await client.tokenRevocation(config, tokens.access_token);
  t.false((await introspect(tokens.access_token)).active);
  t.is(await heroes(config, tokens.access_token), 401, 'the revocation feed reached the edge');
});

test('clientCredentialsGrant with resource: the hero API is granted, another resource is invalid_target', async (t) => {
  const config = await discover(reader.id, reader.secret);
  const tokens = await client.clientCredentialsGrant(config, { resource: `${base}/` });
  t.is(tokens.scope, 'heroes:read', 'the allowed scopes');
  t.is((await introspect(tokens.access_token)).aud, `${base}/`);
  t.is(await heroes(config, tokens.access_token), 200);
  t.is(await heroes(config, tokens.access_token, 'POST', JSON.stringify({ name: 'Not Allowed' })), 403);
  const other = await t.throwsAsync(client.clientCredentialsGrant(config, { resource: 'https://villains.example/' }), { instanceOf: client.ResponseBodyError });
  t.is(other?.error, 'invalid_target');
  const beyond = await t.throwsAsync(client.clientCredentialsGrant(config, { scope: 'heroes:write' }), { instanceOf: client.ResponseBodyError });
  t.is(beyond?.error, 'invalid_scope');
});

test('grants a client is not registered for are unauthorized_client', async (t) => {
  const config = await discover(web.id, web.secret);
  const credentials = await t.throwsAsync(client.clientCredentialsGrant(config), { instanceOf: client.ResponseBodyError });
  t.is(credentials?.error, 'unauthorized_client');
  const password = await t.throwsAsync(client.genericGrantRequest(config, 'password', carol), { instanceOf: client.ResponseBodyError });
  t.is(password?.error, 'unauthorized_client');
});

test('a code flow and a refresh naming the resource give tokens for the hero API', async (t) => {
  const config = await discover(web.id, web.secret);
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const authorizationUrl = client.buildAuthorizationUrl(config, {
    redirect_uri: web.redirectUri,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    resource: `${base}/`,
  });
  const { response, form } = await submitLoginForm(authorizationUrl, carol);
  t.is(response.status, 302);
  const callback = new URL(response.headers.get('location')!, form.action);
  const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }, { resource: `${base}/` });
  t.truthy(tokens.refresh_token);
  t.is((await introspect(tokens.access_token)).aud, `${base}/`);
  t.is(await heroes(config, tokens.access_token), 200);

  const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!, { resource: base });
  if (!refreshed.refresh_token) throw new Error('no rotated refresh token');
  t.is((await introspect(refreshed.access_token)).aud, `${base}/`);
  t.is(await heroes(config, refreshed.access_token), 200);
  const widened = await t.throwsAsync(client.refreshTokenGrant(config, refreshed.refresh_token, { resource: 'https://villains.example/' }), { instanceOf: client.ResponseBodyError });
  t.is(widened?.error, 'invalid_target');
});

test('MCP-style discovery: 401 → resource_metadata → authorization server metadata → token → the call works', async (t) => {
  const unauthenticated = await fetch(`${base}/heroes`);
  t.is(unauthenticated.status, 401);
  const challenge = unauthenticated.headers.get('www-authenticate') ?? '';
  const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
  t.is(metadataUrl, `${base}/.well-known/oauth-protected-resource`);

  const metadata = (await (await fetch(metadataUrl!)).json()) as { resource: string; authorization_servers: string[]; scopes_supported: string[]; bearer_methods_supported: string[] };
  t.is(metadata.resource, new URL(base).href, 'the identifier as a URL-parsing client compares it');
  t.deepEqual(metadata.bearer_methods_supported, ['header']);
  t.is(metadata.authorization_servers.length, 1);

  const issuer = new URL(metadata.authorization_servers[0]!);
  const config = await client.discovery(issuer, machine.id, machine.secret, client.ClientSecretBasic(machine.secret), insecure);
  t.is(config.serverMetadata().issuer, metadata.authorization_servers[0]!, 'the issuer the resource named (RFC 8414 section 3.3)');
  const tokens = await client.clientCredentialsGrant(config, { resource: metadata.resource, scope: metadata.scopes_supported.join(' ') });
  t.is(await heroes(config, tokens.access_token), 200);
});
