/**
 * Brute-force protection: failed logins counted per account and per address in PostgreSQL, for the password grant and
 * the login form alike. Back-off shortened to 1 s so the test can wait it out; refusals answered at once
 * (LOGIN_REFUSAL_DELAY_MS 0) but in the test of that delay.
 */
import { createHash } from 'node:crypto';
import os from 'node:os';
import test from 'ava';
import { waitFor } from '@heroes/test-kit';
import { addClient, addUser, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic } from '../_helpers/http.ts';

let s: TestServer;
let other: TestServer;
const ADDRESS_LIMIT = 30;

test.before(async () => {
  s = await startTestServer({ loginBackoffMs: 1000, loginAddressFailures: ADDRESS_LIMIT, loginRefusalDelayMs: 0 });
  await addClient(s.db, { id: 'conf', secret: 'secret' });
  await addClient(s.db, { id: 'web', secret: 'web-secret', redirectUri: 'http://127.0.0.1:9/cb' });
  for (const name of ['alice', 'bert', 'carl', 'dora']) await addUser(s.db, name, `${name}-password-1`);
  // A second replica on the same database: counts are shared.
  other = await startTestServer({ loginBackoffMs: 1000, loginAddressFailures: ADDRESS_LIMIT, loginRefusalDelayMs: 0 }, s.testDb);
});
test.after.always(async () => {
  await other?.close();
  await s?.close();
});

interface Answer {
  status: number;
  retryAfter: string | null;
  body: Record<string, unknown>;
  text: string;
}

async function passwordGrant(server: TestServer, username: string, password: string, address: string): Promise<Answer> {
  const res = await fetch(`${server.url}/auth/token`, {
    method: 'POST',
    headers: { authorization: basic('conf', 'secret'), 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
    body: new URLSearchParams({ grant_type: 'password', username, password }),
  });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {}
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body, text };
}

async function loginForm(username: string, password: string, address: string): Promise<Answer> {
  const res = await fetch(`${s.url}/auth/code`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
    body: new URLSearchParams({ client_id: 'web', response_type: 'code', state: 's', username, password }),
    redirect: 'manual',
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: {}, text: await res.text() };
}

/** Polls until `attempt` stops answering 429. */
function waitOut(attempt: () => Promise<Answer>): Promise<Answer> {
  return waitFor(async () => {
    const res = await attempt();
    return res.status !== 429 && res;
  }, { intervalMs: 250, message: 'still 429' });
}

test('10 consecutive failures → 429 with Retry-After and an OAuth error, even for the right password; a growing back-off; a success resets', async (t) => {
  const address = '198.51.100.1';
  for (let i = 0; i < 10; i++) {
    // Alternate replicas: the count lives in the database.
    const res = await passwordGrant(i % 2 ? other : s, 'alice', 'wrong', address);
    t.is(res.status, 400, res.text);
    t.is(res.body['error'], 'invalid_grant');
  }
  const refused = await passwordGrant(s, 'alice', 'alice-password-1', address);
  t.is(refused.status, 429, refused.text);
  t.is(refused.body['error'], 'temporarily_unavailable');
  t.regex(String(refused.body['error_description']), /too many failed logins/);
  t.true(Number(refused.retryAfter) >= 1, `Retry-After ${refused.retryAfter}`);
  t.is((await passwordGrant(other, 'alice', 'alice-password-1', address)).status, 429, 'the other replica refuses too');

  // The block is temporary; one more failure after it blocks for longer.
  t.is((await waitOut(() => passwordGrant(s, 'alice', 'wrong', address))).status, 400);
  const longer = await passwordGrant(s, 'alice', 'alice-password-1', address);
  t.is(longer.status, 429);
  t.true(Number(longer.retryAfter) >= 2, `Retry-After ${longer.retryAfter}`);

  // A success resets the account: ten more failures before the next refusal.
  t.is((await waitOut(() => passwordGrant(s, 'alice', 'alice-password-1', address))).status, 200);
  for (let i = 0; i < 10; i++) t.is((await passwordGrant(s, 'alice', 'wrong', address)).status, 400);
  t.is((await passwordGrant(s, 'alice', 'alice-password-1', address)).status, 429);
});

test('another account is not affected by a throttled one', async (t) => {
  const address = '198.51.100.2';
  for (let i = 0; i < 10; i++) await passwordGrant(s, 'nobody-such', 'wrong', address);
  t.is((await passwordGrant(s, 'nobody-such', 'wrong', address)).status, 429, 'unknown usernames are throttled alike');
  t.is((await passwordGrant(s, 'bert', 'bert-password-1', address)).status, 200);
});

test(`${ADDRESS_LIMIT} failures from one address (any accounts) → 429 for that address only`, async (t) => {
  const address = '198.51.100.3';
  for (let i = 0; i < ADDRESS_LIMIT; i++) {
    t.is((await passwordGrant(s, `spray-${i % 5}`, 'wrong', address)).status, 400);
  }
  const refused = await passwordGrant(s, 'carl', 'carl-password-1', address);
  t.is(refused.status, 429);
  t.true(Number(refused.retryAfter) > 60, 'until the 15-minute window ends');
  t.is((await passwordGrant(s, 'carl', 'carl-password-1', '198.51.100.4')).status, 200, 'other addresses still log in');
});

test('the login form is throttled the same way: 429 page with Retry-After, no code', async (t) => {
  const address = '198.51.100.5';
  for (let i = 0; i < 10; i++) {
    const res = await loginForm('dora', 'wrong', address);
    t.is(res.status, 200);
    t.regex(res.text, /<form/);
  }
  const refused = await loginForm('dora', 'dora-password-1', address);
  t.is(refused.status, 429);
  t.true(Number(refused.retryAfter) >= 1);
  t.regex(refused.text, /temporarily_unavailable|too many failed logins/);
  t.is((await passwordGrant(s, 'dora', 'dora-password-1', address)).status, 429, 'and the password grant for the same account');
});

test('20 parallel guesses on a fresh account: at most 10 passwords are checked, the rest 429 at once (no race past the limit)', async (t) => {
  await addUser(s.db, 'parallel-target', 'the-right-password');
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => passwordGrant(i % 2 ? other : s, 'parallel-target', 'wrong', `198.51.100.${20 + i}`)));
  const checked = answers.filter((answer) => answer.status === 400).length;
  const refused = answers.filter((answer) => answer.status === 429).length;
  t.is(checked + refused, 20, answers.map((answer) => answer.status).join(' '));
  t.true(checked <= 10, `${checked} passwords checked`);
  // Once blocked, the back-off's end lets one attempt through at a time, not a burst of them.
  const key = `account:${createHash('sha256').update('parallel-target').digest('base64url')}`;
  await waitFor(async () => {
    const row = await s.db.loginThrottle.findUnique({ where: { key } });
    return !row?.blockedUntil || row.blockedUntil.getTime() < Date.now() - 50;
  }, { intervalMs: 100, message: 'the back-off never ended' });
  const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => passwordGrant(i % 2 ? other : s, 'parallel-target', 'wrong', `198.51.100.${60 + i}`)));
  const burstChecked = burst.filter((answer) => answer.status === 400).length;
  t.true(burstChecked >= 1 && burstChecked <= 2, burst.map((answer) => answer.status).join(' '));
  t.is(burst.filter((answer) => answer.status === 429).length, 10 - burstChecked);
});

test('a refused login is answered after LOGIN_REFUSAL_DELAY_MS, so a guesser waiting for answers slows down; a checked one is not delayed', async (t) => {
  const slow = await startTestServer({ loginAccountFailures: 1, loginBackoffMs: 60_000, loginRefusalDelayMs: 1_500 }, s.testDb);
  try {
    await addUser(s.db, 'delayed-target', 'delayed-password-1');
    t.is((await passwordGrant(slow, 'delayed-target', 'wrong', '198.51.100.90')).status, 400, 'the first failure is checked');
    const started = Date.now();
    const refused = await passwordGrant(slow, 'delayed-target', 'delayed-password-1', '198.51.100.90');
    const waited = Date.now() - started;
    t.is(refused.status, 429, refused.text);
    t.true(waited >= 1_400, `answered after ${waited} ms`);
  } finally {
    await slow.close();
  }
});

test('from the edge (X-Edge-Holds-Refusals from a trusted peer) a refused login is answered at once with X-Edge-Hold-Ms, the delay left to the edge, and X-Edge-Refused-Ms, how long the attempt stays refused (never for a client secret); from anyone else the header is ignored', async (t) => {
  const slow = await startTestServer({ loginAccountFailures: 1, loginBackoffMs: 60_000, loginRefusalDelayMs: 30_000 }, s.testDb);
  try {
    await addUser(s.db, 'held-target', 'held-password-1');
    await addUser(s.db, 'held-other', 'held-other-password-1');
    const attempt = (base: string, headers: Record<string, string>) => fetch(`${base}/auth/token`, {
      method: 'POST',
      headers: { authorization: basic('conf', 'secret'), 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '198.51.100.91', ...headers },
      body: new URLSearchParams({ grant_type: 'password', username: 'held-target', password: 'wrong' }),
      signal: AbortSignal.timeout(5_000),
    });
    t.is((await attempt(slow.url, {})).status, 400, 'the first failure is checked');
    // A refusal delayed 30 s: answered now, the hold named for the edge.
    const held = await attempt(slow.url, { 'x-edge-holds-refusals': '1' });
    t.is(held.status, 429);
    t.is(held.headers.get('x-edge-hold-ms'), '30000');
    t.truthy(held.headers.get('retry-after'));
    const refusedMs = Number(held.headers.get('x-edge-refused-ms'));
    t.true(refusedMs > 0 && refusedMs <= 60_000, `refused for ${refusedMs} ms of the 60 s back-off`);
    // A client secret's refusal is held too, but never repeated by the edge: a remembered right secret skips the throttle.
    await addClient(s.db, { id: 'held-client', secret: 'held-secret' });
    const wrongSecret = (address: string) => fetch(`${slow.url}/auth/token`, {
      method: 'POST',
      headers: { authorization: basic('held-client', 'not the secret'), 'content-type': 'application/x-www-form-urlencoded', 'x-edge-holds-refusals': '1', 'x-forwarded-for': address },
      body: new URLSearchParams({ grant_type: 'password', username: 'held-other', password: 'wrong' }),
    });
    t.is((await wrongSecret('198.51.100.93')).status, 401, 'the first wrong secret is checked');
    const secretRefused = await wrongSecret('198.51.100.93');
    t.is(secretRefused.status, 429);
    t.is(secretRefused.headers.get('x-edge-hold-ms'), '30000');
    t.is(secretRefused.headers.get('x-edge-refused-ms'), null);
    // A checked attempt carries no hold.
    const checked = await fetch(`${slow.url}/auth/token`, {
      method: 'POST',
      headers: { authorization: basic('conf', 'secret'), 'content-type': 'application/x-www-form-urlencoded', 'x-edge-holds-refusals': '1', 'x-forwarded-for': '198.51.100.92' },
      body: new URLSearchParams({ grant_type: 'password', username: 'held-other', password: 'held-other-password-1' }),
    });
    t.is(checked.status, 200);
    t.is(checked.headers.get('x-edge-hold-ms'), null);

    // The same header from a peer that is not a trusted proxy (this host's own non-loopback address) is dropped: the server waits itself.
    const external = Object.values(os.networkInterfaces()).flat().find((entry) => entry?.family === 'IPv4' && !entry.internal)?.address;
    if (external === undefined) return t.log('no non-loopback address here: the untrusted-peer half is skipped');
    const direct = `http://${external}:${new URL(slow.url).port}`;
    const error = await attempt(direct, { 'x-edge-holds-refusals': '1' }).then(() => undefined, (err: unknown) => err);
    t.is((error as { name?: string } | undefined)?.name, 'TimeoutError', 'still waiting after 5 s (of 30): the server holds it');
  } finally {
    await slow.close();
  }
});
