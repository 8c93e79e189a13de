/**
 * End to end: the authorization server and the resource server as real
 * processes on one fresh PostgreSQL database; every request goes through
 * the edge, as a client of {base_url} would send it.
 */
import test from 'ava';
import type { PrismaClient } from '@heroes/db';
import { waitFor } from '@heroes/test-kit';
import { bearer, request } from '../_helpers/http.ts';
import { addClient, basic, passwordToken, revoke } from '../_helpers/oauth.ts';
import { startProcessStack, type ChildServer, type ProcessStack } from '../_helpers/processes.ts';

let stack: ProcessStack;
let db: PrismaClient;
let edge: ChildServer;
const client = { id: 'e2e-app', secret: 'e2e app/secret' };
const scoped = { id: 'e2e-reader', secret: 'reader-secret' };

test.before(async () => {
  stack = await startProcessStack();
  ({ db, edge } = stack);
  await addClient(db, client);
  await addClient(db, { ...scoped, allowedScopes: ['heroes:read'] });
  const res = await request(`${edge.url}/register`, { method: 'POST', json: { username: 'bob', password: 'bob password' } });
  if (res.status !== 200) throw new Error(`register failed: ${res.text}`);
});
test.after.always(async () => {
  await stack?.stop();
});

test('register → token through the edge → heroes CRUD', async (t) => {
  const token = await passwordToken(edge.url, client, 'bob', 'bob password');
  t.is(token.token_type.toLowerCase(), 'bearer');
  const h = bearer(token.access_token);
  t.deepEqual((await request(`${edge.url}/heroes`, { headers: h })).body, []);
  const created = await request(`${edge.url}/heroes`, { method: 'POST', headers: h, json: { name: 'Mr. Nice' } });
  t.is(created.status, 200);
  const hero = created.body as { id: number; name: string };
  t.deepEqual((await request(`${edge.url}/heroes/${hero.id}`, { headers: h })).body, hero);
  t.is((await request(`${edge.url}/heroes`, { method: 'POST', headers: h, json: { name: 'Mr. Nice' } })).status, 409);
  const renamed = await request(`${edge.url}/heroes/${hero.id}`, { method: 'PUT', headers: h, json: { name: 'Mr. Nicer' } });
  t.deepEqual(renamed.body, { id: hero.id, name: 'Mr. Nicer' });
  t.deepEqual((await request(`${edge.url}/heroes?name=NICER`, { headers: h })).body, [{ id: hero.id, name: 'Mr. Nicer' }]);
  t.is((await request(`${edge.url}/heroes/${hero.id}`, { method: 'DELETE', headers: h })).status, 204);
  t.is((await request(`${edge.url}/heroes/${hero.id}`, { headers: h })).status, 404);
});

test('the user registered at the edge can log in; a wrong password cannot', async (t) => {
  const ok = await request(`${edge.url}/auth/token`, {
    method: 'POST',
    headers: { authorization: basic(client.id, client.secret), 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=password&username=bob&password=wrong',
  });
  t.is(ok.status, 400);
  t.is((ok.body as { error: string }).error, 'invalid_grant');
});

test('no header → 401; unknown token → 401 invalid_token; malformed → 400', async (t) => {
  const none = await request(`${edge.url}/heroes`);
  t.is(none.status, 401);
  t.truthy(none.headers.get('www-authenticate'));
  const unknown = await request(`${edge.url}/heroes`, { headers: bearer('x'.repeat(43)) });
  t.is(unknown.status, 401);
  t.deepEqual(unknown.body, { error: 'invalid_token' });
  t.regex(unknown.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
  const malformed = await request(`${edge.url}/heroes`, { headers: { authorization: 'Bearer' } });
  t.is(malformed.status, 400);
});

test('a revoked token → 401 invalid_token', async (t) => {
  const token = await passwordToken(edge.url, client, 'bob', 'bob password');
  t.is((await request(`${edge.url}/heroes`, { headers: bearer(token.access_token) })).status, 200);
  t.is(await revoke(edge.url, client, token.access_token), 200);
  const status = await waitFor(async () => {
    const res = await request(`${edge.url}/heroes`, { headers: bearer(token.access_token) });
    return res.status === 200 ? undefined : res.status;
  }, { message: 'the revoked token was never refused' });
  t.is(status, 401);
});

test('a refresh token is not accepted as a bearer token', async (t) => {
  const token = await passwordToken(edge.url, client, 'bob', 'bob password');
  t.truthy(token.refresh_token, 'a confidential client gets a refresh token');
  const res = await request(`${edge.url}/heroes`, { headers: bearer(token.refresh_token!) });
  t.is(res.status, 401);
});

test('a heroes:read token reads but cannot write → 403 insufficient_scope', async (t) => {
  const token = await passwordToken(edge.url, scoped, 'bob', 'bob password', { scope: 'heroes:read' });
  t.is(token.scope, 'heroes:read');
  const h = bearer(token.access_token);
  t.is((await request(`${edge.url}/heroes`, { headers: h })).status, 200);
  const write = await request(`${edge.url}/heroes`, { method: 'POST', headers: h, json: { name: 'Nope' } });
  t.is(write.status, 403);
  t.deepEqual(write.body, { error: 'insufficient_scope', scope: 'heroes:write' });
});

test('discovery through the edge describes the public base URL', async (t) => {
  const res = await request(`${edge.url}/.well-known/oauth-authorization-server`);
  t.is(res.status, 200);
  const metadata = res.body as { issuer: string; token_endpoint: string };
  t.is(metadata.token_endpoint, `${edge.url}/auth/token`);
});

test('the login form is served through the edge', async (t) => {
  const res = await request(`${edge.url}/auth/code?client_id=${client.id}&response_type=code&state=s`);
  t.true([200, 400].includes(res.status));
  t.regex(res.headers.get('content-type') ?? '', /text\/html/);
});

test('the resource server registered its own confidential client once', async (t) => {
  const row = await db.oAuthClient.findUnique({ where: { id: 'resource-server' } });
  t.truthy(row?.hashedSecret);
  t.regex(row!.hashedSecret!, /^\$2[aby]\$/);
});
