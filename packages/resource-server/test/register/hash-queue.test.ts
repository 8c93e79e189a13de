/**
 * bcrypt work of POST /register goes through a bounded queue: with
 * PASSWORD_HASH_CONCURRENCY 1 and PASSWORD_HASH_QUEUE_MAX 1, a burst of
 * registrations gets 503 JSON with Retry-After for those beyond the queue,
 * answered before the queued ones finish, and nothing stored for them.
 */
import test from 'ava';
import { startFakeAuthServer, type FakeAuthServer } from '../_helpers/fake-auth-server.ts';
import { startInProcess, type InProcessServer } from '../_helpers/in-process.ts';
import { request } from '../_helpers/http.ts';

let auth: FakeAuthServer;
let rs: InProcessServer;

test.before(async () => {
  auth = await startFakeAuthServer();
  // Cost 12: each hash takes a few hundred ms, far longer than answering a refusal.
  rs = await startInProcess(auth.url, { bcryptCost: 12, passwordHashConcurrency: 1, passwordHashQueueMax: 1, registerAddressLimit: 1_000 });
});
test.after.always(async () => {
  await rs?.close();
  await auth?.close();
});

const register = (username: string) => request(`${rs.url}/register`, { method: 'POST', json: { username, password: 'secret pw' } });

test('a burst beyond the queue → 503 JSON with Retry-After, before the queued registrations finish; the next one is served', async (t) => {
  const finished: Array<{ name: string; status: number }> = [];
  const answers = await Promise.all(Array.from({ length: 12 }, async (_, i) => {
    const res = await register(`burst-${i}`);
    finished.push({ name: `burst-${i}`, status: res.status });
    return res;
  }));
  const refused = answers.filter((res) => res.status === 503);
  const stored = answers.filter((res) => res.status === 200);
  t.true(refused.length > 0, `statuses: ${answers.map((res) => res.status).join(' ')}`);
  t.true(stored.length >= 2, 'the running and the queued registration are served');
  t.is(refused.length + stored.length, answers.length);
  for (const res of refused) {
    t.deepEqual(res.body, { error: 'server busy, retry later' });
    t.is(res.headers.get('retry-after'), '1');
  }
  // Every refusal came before the last served registration: none waited for a hash.
  const lastServed = finished.map((answer) => answer.status).lastIndexOf(200);
  t.true(finished.every((answer, index) => answer.status !== 503 || index < lastServed), JSON.stringify(finished));
  const names = finished.filter((answer) => answer.status === 200).map((answer) => answer.name).sort();
  const users = await rs.db.user.findMany({ where: { username: { startsWith: 'burst-' } }, select: { username: true } });
  t.deepEqual(users.map((user) => user.username).sort(), names);
  t.is((await register('after-burst')).status, 200);
});
