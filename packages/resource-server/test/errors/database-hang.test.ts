/**
 * PostgreSQL hangs (a proxy in front of it stops moving bytes; the
 * authorization server is fine): hero routes and /register answer 503 with a
 * database message within DB_QUERY_TIMEOUT_MS, never "authorization server
 * unavailable", and the server recovers by itself when the database moves again.
 */
import test from 'ava';
import { createTestDatabase, type TestDatabase } from '@heroes/test-kit';
import { startTcpProxy, waitFor, type TcpProxy } from '@heroes/test-kit';
import { activeToken, startFakeAuthServer, type FakeAuthServer } from '../_helpers/fake-auth-server.ts';
import { bearer, request } from '../_helpers/http.ts';
import { startInProcess, type InProcessServer } from '../_helpers/in-process.ts';

let auth: FakeAuthServer;
let database: TestDatabase;
let proxy: TcpProxy;
let rs: InProcessServer;

test.before(async () => {
  auth = await startFakeAuthServer();
  auth.tokens.set('ok', activeToken());
  database = await createTestDatabase();
  const target = new URL(database.url);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  rs = await startInProcess(auth.url, { dbQueryTimeoutMs: 2_000, dbConnectTimeoutMs: 2_000 }, { ...database, url: proxy.rewrite(database.url) });
});
test.after.always(async () => {
  proxy?.resume();
  await rs?.close();
  await proxy?.close();
  await database?.drop();
  await auth?.close();
});

/** A hang would never answer: the generous abort turns that into a failure instead of a stuck suite. */
const call = (path: string, init: { method?: string; json?: unknown } = {}) =>
  request(`${rs.url}${path}`, { ...init, headers: bearer('ok'), signal: AbortSignal.timeout(60_000) });

test('hung database → 503 with a database message on every hero route and /register; then recovery', async (t) => {
  // A page, not the whole list: the whole list may be answered from the list cache for 500 ms
  // (data/hero-list-cache.ts), and this test is about the database path.
  t.is((await call('/heroes?limit=1')).status, 200, 'warm: a pooled connection and a cached token');
  t.is((await call('/register', { method: 'POST', json: { username: 'warm', password: 'hero-password-1' } })).status, 200);
  proxy.stall();
  const answers = [
    await call('/heroes'),
    await call('/heroes/1'),
    await call('/heroes', { method: 'POST', json: { name: 'Stuck' } }),
    await call('/register', { method: 'POST', json: { username: 'stuck', password: 'hero-password-1' } }),
  ];
  for (const res of answers) {
    t.is(res.status, 503, JSON.stringify(res.body));
    const error = (res.body as { error?: string }).error ?? '';
    t.regex(error, /database/);
    t.notRegex(error, /authorization server/);
  }
  proxy.resume();
  await waitFor(async () => (await call('/heroes')).status === 200, { intervalMs: 100, message: 'never recovered' });
});
