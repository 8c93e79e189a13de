import test from 'ava';
import { addClient, addUser, RESOURCE_SERVER_CLIENT, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic, introspectAsResourceServer, postForm } from '../_helpers/http.ts';
import { accountSubject } from '../../src/throttle/login-throttle.ts';
import { hashToken, purgeExpired } from '../../src/index.ts';
import { runAuth } from '../_helpers/run-auth.ts';

let s: TestServer;

const token = (authorization: string | undefined, form: Record<string, string> = {}) =>
  postForm(`${s.url}/auth/token`, { grant_type: 'client_credentials', ...form }, authorization ? { authorization } : {});

test.before(async () => {
  s = await startTestServer();
  await addClient(s.db, RESOURCE_SERVER_CLIENT);
  await addClient(s.db, { id: 'reports', secret: 'reports-secret', grantTypes: ['client_credentials'], allowedScopes: ['heroes:read'] });
  await addClient(s.db, { id: 'both', secret: 'both-secret', grantTypes: ['password', 'client_credentials'] });
  await addClient(s.db, { id: 'conf', secret: 'conf-secret' });
  await addClient(s.db, { id: 'pub' });
  await addUser(s.db, 'bob', 'bob-password-1');
});
test.after.always(() => s?.close());

test('a client registered for client_credentials gets a token of its own, no refresh token', async (t) => {
  const res = await token(basic('reports', 'reports-secret'));
  t.is(res.status, 200, JSON.stringify(res.body));
  t.is(res.headers.get('cache-control'), 'no-store');
  t.is(res.body['token_type'], 'bearer');
  t.is(res.body['scope'], 'heroes:read', 'none asked: the allowed scopes');
  t.true(Number.isInteger(res.body['expires_in']));
  t.regex(String(res.body['access_token']), /^[A-Za-z0-9_-]{43,}$/);
  t.false('refresh_token' in res.body);
  t.false('id_token' in res.body);

  const row = await s.db.accessToken.findFirstOrThrow({ where: { clientId: 'reports' } });
  t.is(row.userId, null, 'stored with no user');
  t.not(row.id, res.body['access_token'], 'stored hashed');

  const info = await introspectAsResourceServer(s.url, String(res.body['access_token']));
  t.is(info.body['active'], true);
  t.is(info.body['client_id'], 'reports');
  t.is(info.body['scope'], 'heroes:read');
  t.false('sub' in info.body);
  t.false('username' in info.body);
});

test('a scope within the allowed ones narrows; beyond them is invalid_scope; openid is refused', async (t) => {
  const narrowed = await token(basic('both', 'both-secret'), { scope: 'heroes:read' });
  t.is(narrowed.status, 200);
  t.is(narrowed.body['scope'], 'heroes:read');
  const all = await token(basic('both', 'both-secret'));
  t.is(all.body['scope'], 'heroes:read heroes:write', 'none asked: the default hero scopes');
  for (const scope of ['heroes:write', 'heroes', 'openid', 'heroes:read openid']) {
    const res = await token(basic('reports', 'reports-secret'), { scope });
    t.is(res.status, 400, scope);
    t.is(res.body['error'], 'invalid_scope', scope);
  }
});

test('clients not registered for it get unauthorized_client; a wrong secret invalid_client', async (t) => {
  for (const [authorization, form] of [[basic('conf', 'conf-secret'), {}], [basic('pub', ''), {}], [undefined, { client_id: 'pub' }]] as const) {
    const res = await token(authorization, form);
    t.is(res.status, 400);
    t.is(res.body['error'], 'unauthorized_client');
  }
  const wrong = await token(basic('reports', 'not-the-secret'));
  t.is(wrong.status, 401);
  t.is(wrong.body['error'], 'invalid_client');
  const none = await token(undefined);
  t.is(none.status, 401);
});

test('a client_credentials-only client may not use the password grant, refused before the password is checked', async (t) => {
  const res = await postForm(`${s.url}/auth/token`, { grant_type: 'password', username: 'bob', password: 'wrong-password' }, { authorization: basic('reports', 'reports-secret') });
  t.is(res.status, 400);
  t.is(res.body['error'], 'unauthorized_client');
  t.is(await s.db.loginThrottle.count({ where: { key: accountSubject('bob') } }), 0, 'no failed login was counted: the password was never looked at');
});

test('revocation removes a client-credentials token', async (t) => {
  const issued = String((await token(basic('reports', 'reports-secret'))).body['access_token']);
  const revoked = await postForm(`${s.url}/auth/revoke`, { token: issued }, { authorization: basic('reports', 'reports-secret') });
  t.is(revoked.status, 200);
  const info = await introspectAsResourceServer(s.url, issued);
  t.deepEqual(info.body, { active: false });
});

test.serial('the purge removes an expired client-credentials token; auth tokens revoke --client removes live ones', async (t) => {
  const expired = String((await token(basic('both', 'both-secret'))).body['access_token']);
  await s.db.accessToken.update({ where: { id: hashToken(expired) }, data: { expiresAt: new Date(Date.now() - 1000) } });
  await purgeExpired(s.db);
  t.is(await s.db.accessToken.count({ where: { id: hashToken(expired) } }), 0);

  const live = String((await token(basic('both', 'both-secret'))).body['access_token']);
  const revoked = await runAuth(['tokens', 'revoke', '--client', 'both', '--json'], { databaseUrl: s.testDb.url });
  t.is(revoked.code, 0, revoked.stderr);
  t.true((JSON.parse(revoked.stdout) as { revoked: { accessTokens: number } }).revoked.accessTokens >= 1);
  t.deepEqual((await introspectAsResourceServer(s.url, live)).body, { active: false });
});
