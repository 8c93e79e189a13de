/**
 * Deny-by-default authority end to end (docs/oauth.md, "Scopes"), both servers as processes: a token's hero
 * authority is exactly the hero scopes it records; `openid` grants none; a client without allowed scopes gets the
 * hero scopes and may ask for less; narrowing a client applies at its next refresh.
 */
import test from 'ava';
import type { PrismaClient } from '@heroes/db';
import { bearer, request } from '../_helpers/http.ts';
import { addClient, basic, passwordToken } from '../_helpers/oauth.ts';
import { startProcessStack, type ChildServer, type ProcessStack } from '../_helpers/processes.ts';

let stack: ProcessStack;
let db: PrismaClient;
let edge: ChildServer;
const REDIRECT = 'https://app.example/callback';
const reader = { id: 'reader', secret: 'reader-secret' };
const readerOidc = { id: 'reader-oidc', secret: 'reader-oidc-secret' };
const plain = { id: 'plain', secret: 'plain-secret' };
const narrowed = { id: 'narrowed', secret: 'narrowed-secret' };

test.before(async () => {
  stack = await startProcessStack();
  ({ db, edge } = stack);
  await addClient(db, { ...reader, allowedScopes: ['heroes:read'], redirectUri: REDIRECT });
  await addClient(db, { ...readerOidc, allowedScopes: ['heroes:read', 'openid'] });
  await addClient(db, plain);
  await addClient(db, { ...narrowed, allowedScopes: ['heroes:read', 'heroes:write'] });
  const res = await request(`${edge.url}/register`, { method: 'POST', json: { username: 'ann', password: 'ann password' } });
  if (res.status !== 200) throw new Error(`register failed: ${res.text}`);
});
test.after.always(async () => {
  await stack?.stop();
});

function tokenRequest(client: { id: string; secret: string }, form: Record<string, string>) {
  return request(`${edge.url}/auth/token`, {
    method: 'POST',
    headers: { authorization: basic(client.id, client.secret), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
}

async function heroAccess(accessToken: string): Promise<{ read: number; write: number }> {
  const read = await request(`${edge.url}/heroes`, { headers: bearer(accessToken) });
  const write = await request(`${edge.url}/heroes`, { method: 'POST', headers: bearer(accessToken), json: { name: `Hero ${Math.random()}` } });
  return { read: read.status, write: write.status };
}

async function codeFor(clientId: string, scope: string): Promise<string> {
  const res = await fetch(`${edge.url}/auth/code`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: clientId, redirect_uri: REDIRECT, response_type: 'code', state: 's', scope, username: 'ann', password: 'ann password' }).toString(),
  });
  await res.arrayBuffer();
  const location = new URL(res.headers.get('location') ?? 'about:blank');
  const code = location.searchParams.get('code');
  if (res.status !== 302 || !code) throw new Error(`no code: ${res.status} ${location}`);
  return code;
}

test('hole 1: a refresh with scope=openid does not widen a read-only client to write access', async (t) => {
  const code = await codeFor(reader.id, 'openid heroes:read');
  const exchanged = await tokenRequest(reader, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
  t.is(exchanged.status, 200, exchanged.text);
  const tokens = exchanged.body as Record<string, string>;
  t.deepEqual(await heroAccess(tokens['access_token'] as string), { read: 200, write: 403 });

  const refreshed = await tokenRequest(reader, { grant_type: 'refresh_token', refresh_token: tokens['refresh_token'] as string, scope: 'openid' });
  t.is(refreshed.status, 200, refreshed.text);
  const body = refreshed.body as Record<string, string>;
  t.is(body['scope'], 'openid');
  t.deepEqual(await heroAccess(body['access_token'] as string), { read: 403, write: 403 });
});

test('hole 1: a password token asked only for openid has no hero access', async (t) => {
  const token = await passwordToken(edge.url, readerOidc, 'ann', 'ann password', { scope: 'openid' });
  t.is(token.scope, 'openid');
  t.deepEqual(await heroAccess(token.access_token), { read: 403, write: 403 });
});

test('hole 4: a client without allowed scopes gets the hero scopes explicitly', async (t) => {
  const token = await passwordToken(edge.url, plain, 'ann', 'ann password');
  t.is(token.scope, 'heroes:read heroes:write');
  t.deepEqual(await heroAccess(token.access_token), { read: 200, write: 200 });
});

test('hole 4: a client without allowed scopes that asks for less gets less, with scope in the answer', async (t) => {
  const token = await passwordToken(edge.url, plain, 'ann', 'ann password', { scope: 'heroes:read' });
  t.is(token.scope, 'heroes:read');
  t.deepEqual(await heroAccess(token.access_token), { read: 200, write: 403 });
  const refreshed = await tokenRequest(plain, { grant_type: 'refresh_token', refresh_token: token.refresh_token as string });
  t.is(refreshed.status, 200, refreshed.text);
  t.is((refreshed.body as Record<string, string>)['scope'], 'heroes:read');
});

test('narrowing a client (auth set-scopes) applies at its next refresh', async (t) => {
  const token = await passwordToken(edge.url, narrowed, 'ann', 'ann password');
  t.is(token.scope, 'heroes:read heroes:write');
  await db.oAuthClient.update({ where: { id: narrowed.id }, data: { allowedScopes: ['heroes:read'] } });
  const refreshed = await tokenRequest(narrowed, { grant_type: 'refresh_token', refresh_token: token.refresh_token as string });
  t.is(refreshed.status, 200, refreshed.text);
  const body = refreshed.body as Record<string, string>;
  t.is(body['scope'], 'heroes:read');
  t.deepEqual(await heroAccess(body['access_token'] as string), { read: 200, write: 403 });
});
