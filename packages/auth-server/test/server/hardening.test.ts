import test from 'ava';
import { exchange, jsonBody } from '@heroes/test-kit';
import { startTestServer, type TestServer } from '../_helpers/fixtures.ts';

let s: TestServer;
test.before(async () => {
  s = await startTestServer();
});
test.after.always(() => s?.close());

test('a malformed request line gets a JSON 400 and the connection is closed', async (t) => {
  const { port } = new URL(s.url);
  const reply = await exchange(Number(port), 'NOT A REQUEST\r\n\r\n');
  t.regex(reply.text, /^HTTP\/1\.1 400 /);
  t.deepEqual(jsonBody(reply.text), { error: 'bad request' });
  t.true(reply.closed);
});

test('a declared Content-Length over the limit gets 413 before the body is read', async (t) => {
  const { port } = new URL(s.url);
  const reply = await exchange(
    Number(port),
    'POST /auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 99999999\r\n\r\ngrant_',
  );
  t.regex(reply.text, /^HTTP\/1\.1 413 /);
  t.deepEqual(jsonBody(reply.text), { error: 'entity length exceeds maximum' });
});
