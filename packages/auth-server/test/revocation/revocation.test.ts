import test from 'ava';
import { hashToken, TOKENS_REVOKED_CHANNEL } from '../../src/index.ts';
import { addClients, addUser, startTestServer, RESOURCE_SERVER_CLIENT, type TestServer } from '../_helpers/fixtures.ts';
import { basic, introspectAsResourceServer, passwordGrant, postForm } from '../_helpers/http.ts';
import { listen, type Listener } from '../_helpers/listen.ts';

let s: TestServer;
let listener: Listener;
const user = { username: 'bob', password: 'hero-password-1' };
const app = basic('app', 'app-secret');

test.before(async () => {
  s = await startTestServer();
  await addClients(s.db, [
    { id: 'app', secret: 'app-secret', allowedScopes: ['heroes:read'] },
    { id: 'other', secret: 'other-secret' },
    { id: 'pub' },
    RESOURCE_SERVER_CLIENT,
  ]);
  await addUser(s.db, 'bob', 'hero-password-1');
  listener = await listen(s.testDb.url, TOKENS_REVOKED_CHANNEL);
});
test.after.always(async () => {
  await listener?.close();
  await s?.close();
});

const revoke = (authorization: string | undefined, form: Record<string, string>) =>
  postForm(`${s.url}/auth/revoke`, form, authorization ? { authorization } : {});
const introspect = (token: string) => introspectAsResourceServer(s.url, token);

test('revoking an access token: 200, then introspection says inactive, and resource servers are notified', async (t) => {
  const issued = await passwordGrant(s.url, app, user);
  const token = String(issued.body['access_token']);
  t.true((await introspect(token)).body['active'] as boolean);

  const res = await revoke(app, { token, token_type_hint: 'access_token' });
  t.is(res.status, 200);
  t.is(res.text, '');
  t.deepEqual((await introspect(token)).body, { active: false });

  const note = await listener.waitFor((p) => p['tokenHash'] === hashToken(token));
  t.is(note['tokenHash'], hashToken(token));
  t.false(JSON.stringify(listener.payloads).includes(token), 'the notification never carries the token itself');
});

test('revoking a refresh token kills the grant: refresh fails, its access token is inactive, NOTIFY names the grant', async (t) => {
  const issued = await passwordGrant(s.url, app, user);
  const access = String(issued.body['access_token']);
  const refresh = String(issued.body['refresh_token']);
  const grantId = (await s.db.accessToken.findUnique({ where: { id: hashToken(access) } }))?.grantId;
  t.truthy(grantId);

  t.is((await revoke(app, { token: refresh })).status, 200);
  const refreshed = await postForm(`${s.url}/auth/token`, { grant_type: 'refresh_token', refresh_token: refresh }, { authorization: app });
  t.is(refreshed.body['error'], 'invalid_grant');
  t.deepEqual((await introspect(access)).body, { active: false });
  await listener.waitFor((p) => p['grantId'] === grantId);
  t.pass();
});

test('another client\'s token: the same 200 as an unknown token, and it is not revoked (RFC 7009 2.1, 2.2)', async (t) => {
  const issued = await passwordGrant(s.url, app, user);
  const token = String(issued.body['access_token']);
  const refreshToken = String(issued.body['refresh_token']);
  const other = basic('other', 'other-secret');
  const unknown = await revoke(other, { token: 'x'.repeat(43) });
  const forms: Record<string, string>[] = [{ token }, { token, token_type_hint: 'access_token' }, { token: refreshToken }, { token: refreshToken, token_type_hint: 'refresh_token' }];
  for (const form of forms) {
    const res = await revoke(other, form);
    t.is(res.status, 200, JSON.stringify(form));
    t.is(res.text, unknown.text, 'the body reveals nothing either');
    t.is(res.headers.get('content-type'), unknown.headers.get('content-type'));
  }
  const publicClient = await revoke(basic('pub', ''), { token });
  t.is(publicClient.status, 200);
  t.true((await introspect(token)).body['active'] as boolean, 'the access token is still active');
  t.true((await introspect(refreshToken)).body['active'] as boolean, 'the refresh token is still active');
  const refreshed = await postForm(`${s.url}/auth/token`, { grant_type: 'refresh_token', refresh_token: refreshToken }, { authorization: app });
  t.is(refreshed.status, 200);
});

test('revoking an unknown token is a 200 (RFC 7009 2.2)', async (t) => {
  t.is((await revoke(app, { token: 'x'.repeat(43) })).status, 200);
});

test('revocation needs client authentication', async (t) => {
  const none = await revoke(undefined, { token: 'x' });
  t.is(none.status, 401);
  t.is(none.body['error'], 'invalid_client');
  const wrong = await revoke(basic('app', 'nope'), { token: 'x' });
  t.is(wrong.status, 401);
  t.regex(wrong.headers.get('www-authenticate') ?? '', /^Basic/);
});

test('a public client revokes its own token with Basic base64(id:)', async (t) => {
  const issued = await passwordGrant(s.url, basic('pub', ''), user);
  const token = String(issued.body['access_token']);
  t.is((await revoke(basic('pub', ''), { token })).status, 200);
  t.deepEqual((await introspect(token)).body, { active: false });
});

test('missing token parameter → invalid_request', async (t) => {
  const res = await revoke(app, {});
  t.is(res.status, 400);
  t.is(res.body['error'], 'invalid_request');
});
