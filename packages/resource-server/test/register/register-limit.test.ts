/**
 * POST /register is limited per client address, counted in PostgreSQL so
 * every replica sees the same count: past REGISTER_ADDRESS_LIMIT within the
 * window → 429 with Retry-After and a JSON error, nothing hashed or stored.
 * The address is the socket's, or X-Forwarded-For only behind a trusted proxy.
 */
import test from 'ava';
import { startFakeAuthServer, type FakeAuthServer } from '../_helpers/fake-auth-server.ts';
import { startInProcess, type InProcessServer } from '../_helpers/in-process.ts';
import { request } from '../_helpers/http.ts';

const LIMIT = 3;
let auth: FakeAuthServer;
let behindProxy: InProcessServer;
let replica: InProcessServer;
let direct: InProcessServer;

test.before(async () => {
  auth = await startFakeAuthServer();
  const limits = { registerAddressLimit: LIMIT, registerAddressWindowMs: 15 * 60_000 };
  behindProxy = await startInProcess(auth.url, { ...limits, trustProxy: true });
  // A second replica on the same database: the count is shared.
  replica = await startInProcess(auth.url, { ...limits, trustProxy: true }, behindProxy.database);
  // Not behind a proxy: X-Forwarded-For is the client's own claim and ignored.
  direct = await startInProcess(auth.url, limits);
});
test.after.always(async () => {
  await replica?.close();
  await behindProxy?.close();
  await direct?.close();
  await auth?.close();
});

const register = (server: InProcessServer, username: string, forwardedFor?: string) =>
  request(`${server.url}/register`, {
    method: 'POST',
    json: { username, password: 'secret pw' },
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });

test(`the ${LIMIT + 1}th registration from one address within the window → 429 JSON with Retry-After, on any replica; nothing stored`, async (t) => {
  for (let i = 0; i < LIMIT; i++) {
    const res = await register(i % 2 === 0 ? behindProxy : replica, `limited-${i}`, '203.0.113.5');
    t.is(res.status, 200, JSON.stringify(res.body));
  }
  for (const server of [behindProxy, replica]) {
    const refused = await register(server, `limited-refused-${server.url}`, '203.0.113.5');
    t.is(refused.status, 429);
    t.regex(refused.headers.get('content-type') ?? '', /^application\/json/);
    t.deepEqual(Object.keys(refused.body as object), ['error']);
    t.regex((refused.body as { error: string }).error, /too many registrations/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    t.true(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 15 * 60, String(retryAfter));
  }
  const stored = await behindProxy.db.user.count({ where: { username: { startsWith: 'limited-refused-' } } });
  t.is(stored, 0);
});

test('another address is still served', async (t) => {
  for (let i = 0; i <= LIMIT; i++) await register(behindProxy, `crowd-${i}`, '203.0.113.6');
  const res = await register(behindProxy, 'someone-else', '198.51.100.7');
  t.is(res.status, 200, JSON.stringify(res.body));
});

test('without a trusted proxy, a forged X-Forwarded-For does not escape the limit', async (t) => {
  const answers: number[] = [];
  for (let i = 0; i <= LIMIT; i++) answers.push((await register(direct, `forger-${i}`, `192.0.2.${i + 1}`)).status);
  t.deepEqual(answers, [...Array<number>(LIMIT).fill(200), 429]);
});

test('IPv6 clients are counted by their /64: rotating addresses inside one prefix does not escape the limit', async (t) => {
  const answers: number[] = [];
  for (let i = 0; i <= LIMIT; i++) answers.push((await register(behindProxy, `rotator-${i}`, `2001:db8:7:7::${(i + 1).toString(16)}`)).status);
  t.deepEqual(answers, [...Array<number>(LIMIT).fill(200), 429]);
  const neighbour = await register(behindProxy, 'next-prefix', '2001:db8:7:8::1');
  t.is(neighbour.status, 200, 'another /64 has its own budget');
});
