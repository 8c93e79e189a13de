/**
 * The introspection fast path (endpoints/introspection/fast-introspection.ts) answers exactly as oidc-provider: the same
 * requests to two servers on one database, one answering through fastIntrospection, one through libraryIntrospection,
 * must get equal status, headers and body bytes; counting the provider's token reads shows which path answered.
 */
import test from 'ava';
import { createApp, createAppLayers, libraryIntrospection } from '../../src/index.ts';
import { hashToken } from '../../src/adapter/hash-token.ts';
import { addClient, addUser, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic, passwordGrant, postForm, type JsonResponse } from '../_helpers/http.ts';

let fast: TestServer;
let slow: TestServer;
let providerReads = 0;
const rs = basic('resource-server', 'rs-secret');
const user = { username: 'bob', password: 'hero-password-1' };

test.before(async () => {
  fast = await startTestServer();
  slow = await startTestServer({}, fast.testDb, (deps) => createApp(deps, createAppLayers(deps, libraryIntrospection)));
  await addClient(fast.db, { id: 'app', secret: 'app-secret', allowedScopes: ['heroes:read', 'heroes:write'] });
  await addClient(fast.db, { id: 'plain', secret: 'plain-secret' });
  await addClient(fast.db, { id: 'other', secret: 'other-secret' });
  await addClient(fast.db, { id: 'resource-server', secret: 'rs-secret' });
  await addClient(fast.db, { id: 'machine', secret: 'machine-secret', grantTypes: ['client_credentials'] });
  await addUser(fast.db, 'bob', 'hero-password-1');
  const accessTokens = fast.server.provider.AccessToken as unknown as { find: (...args: unknown[]) => Promise<unknown> };
  const find = accessTokens.find.bind(accessTokens);
  accessTokens.find = (...args) => {
    providerReads++;
    return find(...args);
  };
});
test.after.always(async () => {
  await slow?.close();
  await fast?.close();
});

async function issue(client: string, secret: string, form: Record<string, string> = {}): Promise<string> {
  const res = await passwordGrant(fast.url, basic(client, secret), { ...user, ...form });
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${res.text}`);
  return String(res.body['access_token']);
}

const introspect = (server: TestServer, authorization: string, form: Record<string, string>) =>
  postForm(`${server.url}/auth/introspect`, form, { authorization });

function answer(res: JsonResponse) {
  return { status: res.status, type: res.headers.get('content-type'), cache: res.headers.get('cache-control'), body: res.text };
}

/** Both servers' answers, equal; returns how many requests the fast server left to the provider. */
async function compare(t: import('ava').ExecutionContext, authorization: string, form: Record<string, string>): Promise<number> {
  const before = providerReads;
  const viaFast = await introspect(fast, authorization, form);
  const reads = providerReads - before;
  const viaProvider = await introspect(slow, authorization, form);
  t.deepEqual(answer(viaFast), answer(viaProvider), JSON.stringify(form));
  return reads;
}

test.serial('a live access token: the same answer, without the provider once the caller is remembered', async (t) => {
  const scoped = await issue('app', 'app-secret', { scope: 'heroes:read' });
  const unscoped = await issue('plain', 'plain-secret');
  await compare(t, rs, { token: scoped }); // first use of the caller's secret: the provider verifies it
  for (const token of [scoped, unscoped]) {
    t.is(await compare(t, rs, { token }), 0, 'answered by the fast path');
    t.is(await compare(t, rs, { token, token_type_hint: 'access_token' }), 0);
  }
  const body = JSON.parse((await introspect(fast, rs, { token: scoped })).text) as Record<string, unknown>;
  t.deepEqual(Object.keys(body), ['active', 'sub', 'grant_id', 'username', 'client_id', 'exp', 'iat', 'iss', 'aud', 'scope', 'token_type']);
  t.is(body['active'], true);
  // A client asking about its own token.
  await compare(t, basic('app', 'app-secret'), { token: scoped });
  t.is(await compare(t, basic('app', 'app-secret'), { token: scoped }), 0);
});

test.serial('a client-credentials token (no user, no grant) and one stored without an audience: the same answer', async (t) => {
  const issued = await postForm(`${fast.url}/auth/token`, { grant_type: 'client_credentials' }, { authorization: basic('machine', 'machine-secret') });
  const token = String(issued.body['access_token']);
  await compare(t, rs, { token });
  t.is(await compare(t, rs, { token }), 0, 'answered by the fast path');
  const body = JSON.parse((await introspect(fast, rs, { token })).text) as Record<string, unknown>;
  t.deepEqual(Object.keys(body), ['active', 'client_id', 'exp', 'iat', 'iss', 'aud', 'scope', 'token_type']);
  const legacy = await issue('plain', 'plain-secret');
  await fast.db.$executeRawUnsafe(`UPDATE access_tokens SET payload = payload - 'aud' WHERE id = '${hashToken(legacy)}'`);
  t.is(await compare(t, rs, { token: legacy }), 0);
});

test.serial('everything else is the provider\'s answer', async (t) => {
  const token = await issue('app', 'app-secret');
  await compare(t, rs, { token });
  await compare(t, basic('resource-server', 'wrong-secret'), { token });
  t.is((await introspect(fast, basic('resource-server', 'wrong-secret'), { token })).status, 401);
  t.true(await compare(t, rs, { token: 'x'.repeat(43) }) > 0, 'unknown token');
  t.true(await compare(t, rs, { token, token_type_hint: 'refresh_token' }) > 0, 'another hint');
  t.true(await compare(t, rs, { token, scope: 'x' }) > 0, 'another parameter');
  await compare(t, basic('other', 'other-secret'), { token });
  t.true(await compare(t, basic('other', 'other-secret'), { token }) > 0, 'another client\'s token');
  await compare(t, rs, { token: 'not a token!' });
  await compare(t, rs, {});

  const expired = await issue('app', 'app-secret');
  await fast.db.accessToken.update({ where: { id: hashToken(expired) }, data: { expiresAt: new Date(Date.now() - 1000) } });
  t.true(await compare(t, rs, { token: expired }) > 0, 'expired row');

  const revoked = await issue('app', 'app-secret');
  t.is((await postForm(`${fast.url}/auth/revoke`, { token: revoked }, { authorization: basic('app', 'app-secret') })).status, 200);
  t.true(await compare(t, rs, { token: revoked }) > 0, 'revoked');

  const orphan = await issue('app', 'app-secret');
  const row = await fast.db.accessToken.findUnique({ where: { id: hashToken(orphan) } });
  await fast.db.oidcRecord.deleteMany({ where: { model: 'Grant', id: row?.grantId ?? '' } });
  t.true(await compare(t, rs, { token: orphan }) > 0, 'grant gone');
  t.is((await introspect(fast, rs, { token: orphan })).body['active'], false);
});

test.serial('a rotated secret is verified again: the old one no longer answers', async (t) => {
  const token = await issue('app', 'app-secret');
  await compare(t, basic('app', 'app-secret'), { token });
  t.is(await compare(t, basic('app', 'app-secret'), { token }), 0);
  await fast.db.oAuthClient.update({ where: { id: 'app' }, data: { hashedSecret: (await import('bcrypt')).default.hashSync('new-secret', 4) } });
  const old = await introspect(fast, basic('app', 'app-secret'), { token });
  t.is(old.status, 401);
});
