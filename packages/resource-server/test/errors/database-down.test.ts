import test from 'ava';
import { freePort } from '../_helpers/processes.ts';
import { createTestDatabase } from '@heroes/test-kit';
import { activeToken, startFakeAuthServer, type FakeAuthServer } from '../_helpers/fake-auth-server.ts';
import { bearer, request } from '../_helpers/http.ts';
import { startInProcess } from '../_helpers/in-process.ts';
import { startTcpProxy, waitFor } from '@heroes/test-kit';

let auth: FakeAuthServer;
test.before(async () => {
  auth = await startFakeAuthServer();
  auth.tokens.set('ok', activeToken());
});
test.after.always(() => auth?.close());

test('database unreachable (closed port) → 503 JSON; the server still starts', async (t) => {
  const url = `postgresql://postgres@127.0.0.1:${await freePort()}/nowhere`;
  const fakeDb = { url, name: 'nowhere', drop: async () => {} };
  const rs = await startInProcess(auth.url, {}, fakeDb);
  try {
    const heroes = await request(`${rs.url}/heroes`, { headers: bearer('ok') });
    t.is(heroes.status, 503);
    t.deepEqual(heroes.body, { error: 'unable to connect to database' });
    t.is(heroes.headers.get('retry-after'), '5');
    const register = await request(`${rs.url}/register`, { method: 'POST', json: { username: 'x', password: 'hero-password-1' } });
    t.is(register.status, 503);
    const create = await request(`${rs.url}/heroes`, { method: 'POST', headers: bearer('ok'), json: { name: 'X' } });
    t.is(create.status, 503);
  } finally {
    await rs.close();
  }
});

test('the server recovers by itself when the database comes back', async (t) => {
  const database = await createTestDatabase();
  const target = new URL(database.url);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const rs = await startInProcess(auth.url, {}, { ...database, url: proxy.rewrite(database.url) });
  try {
    // A page, not the whole list, which the list cache may answer for 500 ms (data/hero-list-cache.ts).
    t.is((await request(`${rs.url}/heroes?limit=1`, { headers: bearer('ok') })).status, 200);
    await proxy.cut();
    const down = await request(`${rs.url}/heroes`, { headers: bearer('ok') });
    t.is(down.status, 503);
    t.is(typeof (down.body as { error: string }).error, 'string');
    await proxy.restore();
    await waitFor(async () => (await request(`${rs.url}/heroes`, { headers: bearer('ok') })).status === 200, { intervalMs: 100, message: 'never recovered' });
  } finally {
    await rs.close();
    await proxy.close();
    await database.drop();
  }
});
