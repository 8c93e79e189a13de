import http from 'node:http';
import net from 'node:net';
import test from 'ava';
import { freePort } from '../_helpers/processes.ts';
import { activeToken, startFakeAuthServer } from '../_helpers/fake-auth-server.ts';
import { bearer, request } from '../_helpers/http.ts';
import { startInProcess } from '../_helpers/in-process.ts';

test('authorization server down → 503 JSON on protected routes, /register still works', async (t) => {
  const rs = await startInProcess(`http://127.0.0.1:${await freePort()}`);
  try {
    const res = await request(`${rs.url}/heroes`, { headers: bearer('any') });
    t.is(res.status, 503);
    t.deepEqual(res.body, { error: 'authorization server unavailable' });
    t.is(res.headers.get('retry-after'), '5');
    const forwarded = await request(`${rs.url}/auth/token`, { method: 'POST', body: 'grant_type=password' });
    t.is(forwarded.status, 503);
    t.deepEqual(forwarded.body, { error: 'authorization server unavailable' });
    t.regex(forwarded.headers.get('content-type') ?? '', /application\/json/);
    t.is(forwarded.headers.get('retry-after'), '5');
    const register = await request(`${rs.url}/register`, { method: 'POST', json: { username: 'a', password: 'hero-password-1' } });
    t.is(register.status, 200);
  } finally {
    await rs.close();
  }
});

test('authorization server too slow → 503 after the timeout, not a hang', async (t) => {
  const auth = await startFakeAuthServer();
  auth.tokens.set('slow', activeToken());
  auth.delayMs = 2_000;
  const rs = await startInProcess(auth.url, { introspectionTimeoutMs: 200 });
  try {
    // The fake would answer "active" (200) after 2 s; a 503 means the 200 ms timeout ended the wait first.
    const res = await request(`${rs.url}/heroes`, { headers: bearer('slow') });
    t.is(res.status, 503);
  } finally {
    await rs.close();
    await auth.close();
  }
});

test('introspection refused (wrong client secret) → 503 that names the refused client, never 500', async (t) => {
  const auth = await startFakeAuthServer('Basic bm90LXRoaXM6b25l');
  auth.tokens.set('t', activeToken());
  const rs = await startInProcess(auth.url);
  try {
    const res = await request(`${rs.url}/heroes`, { headers: bearer('t') });
    t.is(res.status, 503);
    // The authorization server is up: the answer must not say it is unavailable.
    t.deepEqual(res.body, { error: 'the authorization server refused this resource server\'s client: check its client id and secret (docs/operations.md)' });
  } finally {
    await rs.close();
    await auth.close();
  }
});

test('authorization server answering 503 itself → 503 that says it cannot validate tokens right now', async (t) => {
  const auth = http.createServer((_req, res) => {
    res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"temporarily_unavailable"}');
  });
  await new Promise<void>((resolve) => auth.listen(0, '127.0.0.1', resolve));
  const rs = await startInProcess(`http://127.0.0.1:${(auth.address() as net.AddressInfo).port}`);
  try {
    const res = await request(`${rs.url}/heroes`, { headers: bearer('t') });
    t.is(res.status, 503);
    t.deepEqual(res.body, { error: 'authorization server cannot validate tokens right now' });
  } finally {
    await rs.close();
    auth.closeAllConnections();
    await new Promise((resolve) => auth.close(resolve));
  }
});
