/**
 * Every password check and unremembered secret compare goes through a bounded hash queue: with concurrency 1 and a
 * queue of 1, logins beyond it get 503 `temporarily_unavailable` with Retry-After before the queued ones finish, are
 * not counted as failures, and the next login is served.
 */
import test from 'ava';
import bcrypt from 'bcrypt';
import { addClient, addUser, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic } from '../_helpers/http.ts';

let s: TestServer;

test.before(async () => {
  // Cost 12: each compare takes a few hundred ms, far longer than answering a refusal.
  // The throttle out of the way (a burst of one client's wrong secrets would block it): the queue is tested here.
  s = await startTestServer({ bcryptCost: 12, passwordHashConcurrency: 1, passwordHashQueueMax: 1, loginAccountFailures: 1_000 });
  await addClient(s.db, { id: 'conf', secret: 'secret' });
  await addClient(s.db, { id: 'web', secret: 'web-secret', redirectUri: 'http://127.0.0.1:9/cb' });
  await addUser(s.db, 'erin', 'erin-password-1');
  await s.db.oAuthClient.create({ data: { id: 'slow', hashedSecret: await bcrypt.hash('slow secret', 12), allowedScopes: [] } });
});
test.after.always(async () => {
  await s?.close();
});

interface Answer {
  status: number;
  retryAfter: string | null;
  text: string;
}

const passwordGrant = (username: string, password: string): Promise<Answer> =>
  answer(fetch(`${s.url}/auth/token`, {
    method: 'POST',
    headers: { authorization: basic('conf', 'secret'), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username, password }),
  }));

const loginForm = (username: string, password: string): Promise<Answer> =>
  answer(fetch(`${s.url}/auth/code`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: 'web', response_type: 'code', state: 's', username, password }),
    redirect: 'manual',
  }));

async function answer(pending: Promise<Response>): Promise<Answer> {
  const res = await pending;
  return { status: res.status, retryAfter: res.headers.get('retry-after'), text: await res.text() };
}

/** Sends `count` logins at once; the answers in the order they finished. */
async function burst(count: number, login: (username: string) => Promise<Answer>): Promise<Answer[]> {
  const finished: Answer[] = [];
  await Promise.all(Array.from({ length: count }, async (_, i) => finished.push(await login(`guest-${i}`))));
  return finished;
}

/** Some refusals, and each one before the last answer that waited for a hash. */
function assertRefusedEarly(t: import('ava').ExecutionContext, finished: Answer[], checked: number): Answer[] {
  const refused = finished.filter((res) => res.status === 503);
  t.true(refused.length > 0, `statuses: ${finished.map((res) => res.status).join(' ')}`);
  t.true(finished.filter((res) => res.status === checked).length >= 2, 'the running and the queued check are answered');
  const lastChecked = finished.map((res) => res.status).lastIndexOf(checked);
  t.true(finished.every((res, index) => res.status !== 503 || index < lastChecked), finished.map((res) => res.status).join(' '));
  for (const res of refused) t.is(res.retryAfter, '1');
  return refused;
}

test.serial('password grant: a burst beyond the queue → 503 temporarily_unavailable with Retry-After, before the queued checks finish', async (t) => {
  const finished = await burst(12, (username) => passwordGrant(username, 'wrong'));
  for (const res of assertRefusedEarly(t, finished, 400)) {
    const body = JSON.parse(res.text) as Record<string, unknown>;
    t.is(body['error'], 'temporarily_unavailable');
    t.regex(String(body['error_description']), /retry later/);
  }
  t.is((await passwordGrant('erin', 'erin-password-1')).status, 200);
});

test.serial('login form: a burst beyond the queue → 503 page with Retry-After, before the queued checks finish', async (t) => {
  const finished = await burst(12, (username) => loginForm(username, 'wrong'));
  for (const res of assertRefusedEarly(t, finished, 200)) t.regex(res.text, /temporarily_unavailable/);
  t.is((await loginForm('erin', 'erin-password-1')).status, 302);
});

test.serial('client secrets: a burst of distinct wrong secrets beyond the queue → 503 temporarily_unavailable with Retry-After, before the queued compares finish', async (t) => {
  const introspect = (secret: string) =>
    answer(fetch(`${s.url}/auth/introspect`, {
      method: 'POST',
      headers: { authorization: basic('slow', secret), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: 'whatever' }),
    }));
  // Distinct secrets: no two requests share one compare.
  const finished = await burst(12, (name) => introspect(`wrong ${name}`));
  for (const res of assertRefusedEarly(t, finished, 401)) {
    const body = JSON.parse(res.text) as Record<string, unknown>;
    t.is(body['error'], 'temporarily_unavailable');
    t.is(body['error_description'], 'server busy, retry later');
  }
  t.is((await introspect('slow secret')).status, 200, 'the right secret is served once the burst is over');
});
