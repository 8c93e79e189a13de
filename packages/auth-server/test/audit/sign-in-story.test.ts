/**
 * The audit trail of a whole sign-in story against a running server and the real `auth` binary (failed, throttled,
 * unlocked, succeeded, refreshed, refresh reused, revoked): each event names user, client, address and X-Request-Id,
 * is logged as one JSON line, and never holds a password, secret or token.
 */
import test from 'ava';
import { pino } from 'pino';
import { addClient, addUser, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic, postForm, type JsonResponse } from '../_helpers/http.ts';
import { runAuth } from '../_helpers/run-auth.ts';

const PASSWORD = 'bobs-long-password';
const SECRET = 'app-secret-0123456789';
const logLines: string[] = [];
let s: TestServer;

test.before(async () => {
  const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
  s = await startTestServer({ logger, loginAccountFailures: 2, loginRefusalDelayMs: 0, loginBackoffMs: 600_000 });
  await addClient(s.db, { id: 'app', secret: SECRET });
  await addUser(s.db, 'bob', PASSWORD);
});
test.after.always(() => s?.close());

const token = (form: Record<string, string>, requestId: string) =>
  postForm(`${s.url}/auth/token`, form, { authorization: basic('app', SECRET), 'x-request-id': requestId });
const login = (password: string, requestId: string) => token({ grant_type: 'password', username: 'bob', password }, requestId);

async function events(...args: string[]): Promise<Array<Record<string, string>>> {
  const result = await runAuth(['events', '--json', ...args], { databaseUrl: s.testDb.url });
  if (result.code !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout) as Array<Record<string, string>>;
}

test.serial('every step of a sign-in story is one audit record, newest last, with who, where and which request', async (t) => {
  const answers: JsonResponse[] = [];
  answers.push(await login('wrong-password-1', 'story-1'));
  answers.push(await login('wrong-password-2', 'story-2'));
  answers.push(await login(PASSWORD, 'story-3'));
  t.deepEqual(answers.map((answer) => answer.status), [400, 400, 429]);

  const unlocked = await runAuth(['users', 'unlock', 'bob'], { databaseUrl: s.testDb.url });
  t.is(unlocked.code, 0, unlocked.stderr);

  const signedIn = await login(PASSWORD, 'story-4');
  t.is(signedIn.status, 200);
  t.is(signedIn.headers.get('x-request-id'), 'story-4');
  const refreshToken = String(signedIn.body['refresh_token']);
  t.is((await token({ grant_type: 'refresh_token', refresh_token: refreshToken }, 'story-5')).status, 200);
  t.is((await token({ grant_type: 'refresh_token', refresh_token: refreshToken }, 'story-6')).status, 400);

  const again = await login(PASSWORD, 'story-7');
  const revoked = await postForm(`${s.url}/auth/revoke`, { token: String(again.body['access_token']) }, { authorization: basic('app', SECRET), 'x-request-id': 'story-8' });
  t.is(revoked.status, 200);

  const story = await events('--user', 'bob');
  // Events of one request (a login's success and its token) are written side by side: their order is the database's.
  const byRequest = (list: Array<Record<string, string>>) => list.map((event) => `${event['requestId'] ?? '-'} ${event['type']}`)
    .sort((x, y) => Number(/\d+/.exec(x)?.[0] ?? 3.5) - Number(/\d+/.exec(y)?.[0] ?? 3.5) || x.localeCompare(y));
  t.deepEqual(byRequest(story), [
    'story-1 login.failed',
    'story-2 login.failed',
    'story-3 login.throttled',
    '- user.unlocked',
    'story-4 login.succeeded',
    'story-4 token.issued',
    'story-5 token.issued',
    'story-6 refresh.reused',
    'story-7 login.succeeded',
    'story-7 token.issued',
    'story-8 token.revoked',
  ]);
  t.deepEqual(story.map((event) => event['requestId']), byRequest(story).map((line) => line.split(' ')[0]).map((id) => (id === '-' ? undefined : id)),
    'newest last: requests in the order they were answered');
  for (const event of story) {
    t.is(event['username'], 'bob');
    t.truthy(Date.parse(event['at']!), 'at is an ISO 8601 instant');
    if (event['type'] !== 'user.unlocked') {
      t.is(event['clientId'], 'app', event['type']);
      t.is(event['address'], '127.0.0.1', event['type']);
    }
  }
  t.is(story[0]!['reason'], 'wrong password');
  t.regex(story[2]!['reason']!, /retry after \d+ s/);
  t.deepEqual(story.filter((event) => event['type'] === 'token.issued').map((event) => event['reason']), ['password grant', 'refresh_token grant', 'password grant']);

  const everything = JSON.stringify(await events()) + logLines.join('');
  for (const secret of [PASSWORD, SECRET, refreshToken, String(signedIn.body['access_token']), String(again.body['access_token'])]) {
    t.false(everything.includes(secret), 'no password, secret or token is recorded or logged');
  }

  const logged = logLines.map((line) => JSON.parse(line) as { msg?: string; audit?: Record<string, string> }).filter((line) => line.msg === 'audit event');
  t.deepEqual(logged.map((line) => line.audit!['type']).sort(), story.filter((event) => event['type'] !== 'user.unlocked').map((event) => event['type']).sort(),
    'each event the server wrote is also one JSON log line');
  t.is(logged[0]!.audit!['requestId'], 'story-1');
  t.is(logged[0]!.audit!['username'], 'bob');
});

test.serial('an unknown username is recorded as typed, with why; filters by type and time', async (t) => {
  t.is((await postForm(`${s.url}/auth/token`, { grant_type: 'password', username: 'nobody\u0000', password: 'x' }, { authorization: basic('app', SECRET) })).status, 400);
  const failed = await events('--type', 'login.failed', '--since', '1m');
  const last = failed.at(-1)!;
  t.is(last['username'], 'nobody\uFFFD');
  t.is(last['reason'], 'unknown user');
  t.true(failed.every((event) => event['type'] === 'login.failed'));
});

test.serial('the login form records its sign-ins as the password grant does, with its client', async (t) => {
  await addClient(s.db, { id: 'web', secret: 'web-secret', redirectUri: 'http://127.0.0.1:9/cb' });
  await addUser(s.db, 'formuser', 'form-user-password');
  const form = (password: string, requestId: string) => postForm(`${s.url}/auth/code`,
    { client_id: 'web', response_type: 'code', state: 'st', username: 'formuser', password }, { 'x-request-id': requestId });
  t.is((await form('wrong', 'form-1')).status, 200, 'the form again, with an error');
  t.is((await form('form-user-password', 'form-2')).status, 302);
  const story = await events('--user', 'formuser');
  t.deepEqual(story.map((event) => [event['type'], event['clientId'], event['requestId'], event['reason']]), [
    ['login.failed', 'web', 'form-1', 'wrong password'],
    ['login.succeeded', 'web', 'form-2', undefined],
  ]);
});
