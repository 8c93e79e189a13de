import http from 'node:http';
import test from 'ava';
import { pino } from 'pino';
import { startFakeAuthServer, type FakeAuthServer } from '../_helpers/fake-auth-server.ts';
import { startInProcess, type InProcessServer } from '../_helpers/in-process.ts';
import { exchange, jsonBody, waitFor } from '@heroes/test-kit';

const LIMIT = 1000;
let auth: FakeAuthServer;
let rs: InProcessServer;
let port: number;
const logs: Array<Record<string, unknown>> = [];

test.before(async () => {
  auth = await startFakeAuthServer();
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  rs = await startInProcess(auth.url, { maxBodyBytes: LIMIT, requestTimeoutMs: 1_500, logger });
  port = Number(new URL(rs.url).port);
});
test.after.always(async () => {
  await rs?.close();
  await auth?.close();
});

const registerHead = (length: number, extra = '') =>
  `POST /register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${extra}\r\n`;

test('Expect: 100-continue with an announced body over the limit → 413 without waiting for the body, no 100 Continue, connection closed', async (t) => {
  const res = await exchange(port, registerHead(11 * 1024 * 1024, 'Expect: 100-continue\r\n'), { waitMs: 4_000 });
  t.notRegex(res.text, /100 Continue/);
  t.regex(res.text, /^HTTP\/1\.1 413 /);
  t.regex(res.text, /\r\nconnection: close\r\n/i);
  t.deepEqual(jsonBody(res.text), { error: 'entity length exceeds maximum' });
  t.true(res.closed);
});

test('Expect: 100-continue within the limit → 100 Continue, then the registration', async (t) => {
  const body = JSON.stringify({ username: 'continued', password: 'hero-password-1' });
  const result = await new Promise<{ continued: boolean; status: number }>((resolve, reject) => {
    let continued = false;
    const req = http.request(`${rs.url}/register`, {
      method: 'POST', agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
    }, (res) => {
      res.resume();
      res.on('end', () => resolve({ continued, status: res.statusCode ?? 0 }));
    });
    req.on('continue', () => {
      continued = true;
      req.end(body);
    });
    req.on('error', reject);
  });
  t.deepEqual(result, { continued: true, status: 200 });
});

test('Content-Length: 99999999 with 6 bytes sent → 413 while the body is still missing, connection closed', async (t) => {
  const res = await exchange(port, `${registerHead(99_999_999)}{"a":1`, { waitMs: 4_000 });
  t.regex(res.text, /^HTTP\/1\.1 413 /);
  t.regex(res.text, /\r\nconnection: close\r\n/i);
  t.deepEqual(jsonBody(res.text), { error: 'entity length exceeds maximum' });
  t.true(res.closed);
});

test('a stalled body gets 408 JSON after REQUEST_TIMEOUT_MS and the connection is closed', async (t) => {
  const res = await exchange(port, `${registerHead(50)}{"username":`, { waitMs: 20_000 });
  t.regex(res.text, /^HTTP\/1\.1 408 /);
  t.deepEqual(jsonBody(res.text), { error: 'request timeout' });
  t.true(res.closed);
});

test('headers over 16 KiB → 431 JSON; a malformed request line → 400 JSON', async (t) => {
  const big = await exchange(port, `GET /heroes HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
  t.regex(big.text, /^HTTP\/1\.1 431 /);
  t.deepEqual(jsonBody(big.text), { error: 'request header fields too large' });
  t.true(big.closed);
  const bad = await exchange(port, 'GET /heroes HTTP/9.x\r\n\r\n');
  t.regex(bad.text, /^HTTP\/1\.1 400 /);
  t.deepEqual(jsonBody(bad.text), { error: 'bad request' });
  t.true(bad.closed);
});

test('a request the client aborts is logged without a status (nothing was sent) and aborted: true', async (t) => {
  await exchange(port, `${registerHead(200)}{"username":"half`, { waitMs: 200 });
  const line = await waitFor(() => logs.find((entry) => entry['msg'] === 'request' && entry['aborted'] === true && entry['path'] === '/register'));
  t.like(line, { method: 'POST', path: '/register', status: null, aborted: true });
});
