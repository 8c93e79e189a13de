import test from 'ava';
import { createTestDatabase, type TestDatabase } from '@heroes/test-kit';
import { addClient, addUser, startTestServer, RESOURCE_SERVER_CLIENT, type TestServer } from '../_helpers/fixtures.ts';
import { basic, introspectAsResourceServer, passwordGrant, postForm, type JsonResponse } from '../_helpers/http.ts';
import { startTcpProxy, waitFor, type TcpProxy } from '@heroes/test-kit';

// docs/http.md, "Errors": the database unreachable → 503, at every OAuth endpoint, and the server recovers.
let testDb: TestDatabase;
let proxy: TcpProxy;
let s: TestServer;

test.before(async () => {
  testDb = await createTestDatabase();
  const target = new URL(testDb.url);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  s = await startTestServer({}, { ...testDb, url: proxy.rewrite(testDb.url) });
  await addClient(s.db, { id: 'app', secret: 'app-secret' });
  await addClient(s.db, RESOURCE_SERVER_CLIENT);
  await addUser(s.db, 'bob', 'hero-password-1');
});
test.after.always(async () => {
  await proxy?.restore().catch(() => {});
  await s?.close();
  await proxy?.close();
  await testDb?.drop();
});

function assertUnavailable(t: import('ava').ExecutionContext, res: JsonResponse, what: string): void {
  t.is(res.status, 503, `${what}: ${res.text}`);
  t.deepEqual(res.body, { error: 'temporarily_unavailable', error_description: 'unable to connect to database' }, what);
  t.is(res.headers.get('cache-control'), 'no-store', what);
}

test.serial('token, revoke and introspect answer 503 while the database is unreachable, then recover', async (t) => {
  const issued = await passwordGrant(s.url, basic('app', 'app-secret'), { username: 'bob', password: 'hero-password-1' });
  t.is(issued.status, 200, issued.text);
  const token = String(issued.body['access_token']);

  await proxy.cut();
  try {
    assertUnavailable(t, await passwordGrant(s.url, basic('app', 'app-secret'), { username: 'bob', password: 'hero-password-1' }), 'password grant');
    assertUnavailable(t, await postForm(`${s.url}/auth/revoke`, { token }, { authorization: basic('app', 'app-secret') }), 'revoke');
    assertUnavailable(t, await introspectAsResourceServer(s.url, token), 'introspect');
    assertUnavailable(t, await postForm(`${s.url}/auth/token`, { grant_type: 'refresh_token', refresh_token: String(issued.body['refresh_token']) }, { authorization: basic('app', 'app-secret') }), 'refresh');
  } finally {
    await proxy.restore();
  }

  let last: JsonResponse | undefined;
  const recovered = await waitFor(async () => {
    last = await introspectAsResourceServer(s.url, token);
    return last.status === 200 && last;
  }, { intervalMs: 200, message: () => `never recovered: ${last?.text}` });
  t.is(recovered.body['active'], true);
  const again = await passwordGrant(s.url, basic('app', 'app-secret'), { username: 'bob', password: 'hero-password-1' });
  t.is(again.status, 200, again.text);
});
