/**
 * PostgreSQL hangs under both servers (a proxy in front of it stops moving
 * bytes; the servers are fine): a hero request answers 503 with a database
 * message within the servers' DB_QUERY_TIMEOUT_MS — whether its token is
 * cached at the edge or must be introspected (the authorization server then
 * answers 503 temporarily_unavailable, naming its database) — never
 * "authorization server unavailable" after the introspection time limit.
 * Both servers recover by themselves when the database moves again.
 */
import test from 'ava';
import { createTestDatabase, type TestDatabase } from '@heroes/test-kit';
import { passwordToken, startTcpProxy, waitFor, type TcpProxy } from '@heroes/test-kit';
import { startInProcessStack, type InProcessStack } from './_helpers/in-process-stack.ts';
import { PASSWORD_CLIENT_ID, registerPasswordClient } from './_helpers/password-client.ts';

let database: TestDatabase;
let proxy: TcpProxy;
let stack: InProcessStack | undefined;
let edge = '';

test.before(async () => {
  database = await createTestDatabase();
  await registerPasswordClient(database.url);
  const target = new URL(database.url);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const limits = { dbQueryTimeoutMs: 2_000, dbConnectTimeoutMs: 2_000 };
  stack = await startInProcessStack(proxy.rewrite(database.url), limits, {
    ...limits,
    // Far longer than the database limit: the authorization server's own 503 must come first.
    introspectionTimeoutMs: 30_000,
  });
  edge = stack.edge;
});

test.after.always(async () => {
  proxy?.resume();
  await stack?.close();
  await proxy?.close();
  await database?.drop();
});

/** A hang would never answer: the generous abort turns that into a failure instead of a stuck suite. */
async function call(path: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${edge}${path}`, { ...init, signal: AbortSignal.timeout(60_000) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** A token for a public client registered for the password grant (the generous abort as in call()). */
async function accessToken(username: string, password: string): Promise<string> {
  return (await passwordToken(edge, { id: PASSWORD_CLIENT_ID }, username, password, { signal: AbortSignal.timeout(60_000) })).access_token;
}

test('hung database → 503 naming the database for cached and uncached tokens alike; then recovery', async (t) => {
  const registered = await call('/register', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"username":"hang-user","password":"hang password"}' });
  t.is(registered.status, 200);
  const cached = await accessToken('hang-user', 'hang password');
  const uncached = await accessToken('hang-user', 'hang password');
  // A page, not the whole list, which the edge's list cache may answer for 500 ms
  // (resource server, data/hero-list-cache.ts): this test is about the database path.
  t.is((await call('/heroes?limit=100', { headers: { authorization: `Bearer ${cached}` } })).status, 200, 'cached at the edge');

  proxy.stall();
  for (const token of [cached, uncached]) {
    const res = await call('/heroes?limit=100', { headers: { authorization: `Bearer ${token}` } });
    t.is(res.status, 503, JSON.stringify(res.body));
    t.regex(String(res.body['error']), /database/);
    t.notRegex(String(res.body['error']), /authorization server/);
  }

  proxy.resume();
  await waitFor(async () => (await call('/heroes', { headers: { authorization: `Bearer ${uncached}` } })).status === 200, {
    intervalMs: 200,
    message: 'never recovered',
  });
});
