/**
 * The password rule of POST /register (NIST SP 800-63B): at least
 * PASSWORD_MIN_LENGTH characters, 64 and more allowed, no composition
 * rules, the most common passwords refused; each refusal a 400 naming its
 * rule, nothing stored. And the route's small body limit (AUTH_MAX_BODY_BYTES).
 */
import test from 'ava';
import { exchange, jsonBody } from '@heroes/test-kit';
import { startFakeAuthServer, type FakeAuthServer } from '../_helpers/fake-auth-server.ts';
import { startInProcess, type InProcessServer } from '../_helpers/in-process.ts';
import { request } from '../_helpers/http.ts';

let auth: FakeAuthServer;
let rs: InProcessServer;
let strict: InProcessServer;

test.before(async () => {
  auth = await startFakeAuthServer();
  rs = await startInProcess(auth.url);
  strict = await startInProcess(auth.url, { passwordMinLength: 12 });
});
test.after.always(async () => {
  await strict?.close();
  await rs?.close();
  await auth?.close();
});

const register = (username: string, password: string, server = rs) =>
  request(`${server.url}/register`, { method: 'POST', json: { username, password } });

async function refused(t: import('ava').ExecutionContext, username: string, password: string, reason: string, server = rs): Promise<void> {
  const res = await register(username, password, server);
  t.is(res.status, 400, `${password}: ${res.text}`);
  t.deepEqual(res.body, { error: 'entity validation failed', reasons: [reason] }, password);
  t.is(await server.db.user.count({ where: { username } }), 0, 'nothing stored');
}

test('a password shorter than 8 characters → 400 naming the rule ("a" registered before)', async (t) => {
  await refused(t, 'short-a', 'a', "'password' must be at least 8 characters");
  await refused(t, 'short-7', 'abc-def', "'password' must be at least 8 characters");
  t.is((await register('eight', 'abc-defg')).status, 200, 'exactly 8 passes');
});

test('characters, not bytes nor UTF-16 units, are counted: 7 emoji are 7 characters', async (t) => {
  await refused(t, 'emoji-7', '🦸'.repeat(7), "'password' must be at least 8 characters");
  t.is((await register('accented-8', 'héroïne!')).status, 200);
});

test('the most common passwords are refused, whatever their case', async (t) => {
  for (const [username, password] of [['common-1', 'password'], ['common-2', '12345678'], ['common-3', 'Password1'], ['common-4', 'QWERTYUIOP'], ['common-5', 'iloveyou']]) {
    await refused(t, username!, password!, "'password' is one of the most common passwords; choose another (a few words make a good one)");
  }
});

test('the username itself and one character repeated are refused', async (t) => {
  await refused(t, 'Captain-Marvel', 'captain-marvel', "'password' must not be the username");
  await refused(t, 'repeated', 'zzzzzzzzzzzz', "'password' must not be one character repeated");
});

test('no composition rules: lower-case words with spaces pass, and so do 64 characters (72 bytes of ASCII)', async (t) => {
  t.is((await register('words', 'correct horse battery staple')).status, 200);
  t.is((await register('only-lower', 'bobs-long-password')).status, 200);
  t.is((await register('long-64', 'a-long-passphrase-'.repeat(4).slice(0, 64))).status, 200);
  t.is((await register('long-72', 'x1'.repeat(36))).status, 200);
});

test('PASSWORD_MIN_LENGTH raises the minimum', async (t) => {
  await refused(t, 'strict-11', 'eleven-char', "'password' must be at least 12 characters", strict);
  t.is((await register('strict-12', 'twelve-chars', strict)).status, 200);
});

test('a form body follows the same rule', async (t) => {
  const res = await request(`${rs.url}/register`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'username=form-short&password=pw',
  });
  t.is(res.status, 400);
  t.deepEqual(res.body, { error: 'entity validation failed', reasons: ["'password' must be at least 8 characters"] });
});

test('a Content-Length over AUTH_MAX_BODY_BYTES (64 KiB, not the hero routes\' 10 MiB) → 413 before a byte of body is sent', async (t) => {
  const head = `POST /register HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${64 * 1024 + 1}\r\n\r\n`;
  const res = await exchange(Number(new URL(rs.url).port), head, { waitMs: 10_000, until: /\r\n\r\n\{.*\}/s });
  t.regex(res.text, /^HTTP\/1\.1 413 /, res.text || 'no answer while the body was withheld');
  t.deepEqual(jsonBody(res.text), { error: 'entity length exceeds maximum' });
});
