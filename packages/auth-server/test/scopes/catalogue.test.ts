/**
 * The scope catalogue is what operators registered (docs/oauth.md, "Scopes"):
 * discovery lists exactly the scopes clients may be granted (plus
 * `openid`); request input never adds to it; more than 50 values or a
 * value over 256 characters is invalid_scope, before any password check.
 */
import test from 'ava';
import { addClient, addUser, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic, passwordGrant, postForm } from '../_helpers/http.ts';

let s: TestServer;
const redirectUri = 'http://127.0.0.1:9/cb';

test.before(async () => {
  s = await startTestServer();
  await addClient(s.db, { id: 'reader', secret: 'r', redirectUri, allowedScopes: ['heroes:read', 'reports'] });
  await addClient(s.db, { id: 'spa', redirectUri, allowedScopes: ['heroes:read'] });
  await addUser(s.db, 'bob', 'hero-password-1');
});
test.after.always(() => s?.close());

async function catalogue(): Promise<string[]> {
  const res = await fetch(`${s.url}/.well-known/oauth-authorization-server`);
  const body = (await res.json()) as { scopes_supported: string[] };
  return [...body.scopes_supported].sort();
}

const junk = (n: number, prefix = 'heroes:read:') => Array.from({ length: n }, (_, i) => `${prefix}junk${i}`).join(' ');

test.serial('discovery lists the registered scopes plus openid, nothing else', async (t) => {
  t.deepEqual(await catalogue(), ['heroes:read', 'openid', 'reports']);
});

test.serial('sub-scopes granted by the password grant and /auth/code never reach the catalogue', async (t) => {
  const before = await catalogue();
  const granted = await passwordGrant(s.url, basic('reader', 'r'), { username: 'bob', password: 'hero-password-1', scope: junk(40) });
  t.is(granted.status, 200, granted.text);
  // A public client id and a wrong password: refused, and nothing learned from its scope either.
  const refused = await passwordGrant(s.url, undefined, { client_id: 'spa', username: 'bob', password: 'wrong', scope: junk(40, 'heroes:read:x') });
  t.is(refused.status, 400);
  const page = await fetch(`${s.url}/auth/code?${new URLSearchParams({ client_id: 'reader', response_type: 'code', state: 's', scope: junk(40, 'reports:') })}`);
  t.is(page.status, 200);
  await page.arrayBuffer();
  const posted = await postForm(`${s.url}/auth/code`, { client_id: 'reader', response_type: 'code', state: 's', scope: junk(30, 'reports:p'), username: 'bob', password: 'hero-password-1' });
  t.is(posted.status, 302);
  t.deepEqual(await catalogue(), before);
});

test.serial('a client registered after start adds its scopes; one without allowed scopes adds the hero scopes', async (t) => {
  await addClient(s.db, { id: 'late', secret: 'l', allowedScopes: ['villains:read'] });
  t.deepEqual(await catalogue(), ['heroes:read', 'openid', 'reports', 'villains:read']);
  await addClient(s.db, { id: 'plain', secret: 'p' });
  t.deepEqual(await catalogue(), ['heroes:read', 'heroes:write', 'openid', 'reports', 'villains:read']);
});

for (const [label, scope] of [
  ['51 scope values', junk(51)],
  ['300 scope values', junk(300)],
  ['a value of 257 characters', `heroes:read:${'x'.repeat(245)}`],
] as const) {
  test(`password grant: ${label} → invalid_scope before the password is checked`, async (t) => {
    const wrongPassword = await passwordGrant(s.url, basic('reader', 'r'), { username: 'bob', password: 'wrong', scope });
    t.is(wrongPassword.status, 400);
    t.is(wrongPassword.body['error'], 'invalid_scope', wrongPassword.text);
  });

  test(`refresh: ${label} → invalid_scope`, async (t) => {
    const issued = await passwordGrant(s.url, basic('reader', 'r'), { username: 'bob', password: 'hero-password-1' });
    const res = await postForm(`${s.url}/auth/token`, { grant_type: 'refresh_token', refresh_token: String(issued.body['refresh_token']), scope }, { authorization: basic('reader', 'r') });
    t.is(res.status, 400);
    t.is(res.body['error'], 'invalid_scope', res.text);
  });
}

test('POST /auth/code: 51 scope values → redirected back with invalid_scope, no code', async (t) => {
  const res = await postForm(`${s.url}/auth/code`, { client_id: 'reader', response_type: 'code', state: 's', scope: Array.from({ length: 51 }, (_, i) => `r${i}`).join(' '), username: 'bob', password: 'hero-password-1' });
  t.is(res.status, 302);
  const location = new URL(res.headers.get('location') ?? 'about:blank');
  t.is(location.searchParams.get('error'), 'invalid_scope');
  t.is(location.searchParams.get('code'), null);
});
