import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { startFakeAuthServer, type FakeAuthServer } from '../_helpers/fake-auth-server.ts';
import { request } from '../_helpers/http.ts';
import { startInProcess, type InProcessServer } from '../_helpers/in-process.ts';

let auth: FakeAuthServer;
let rs: InProcessServer;

test.before(async () => {
  auth = await startFakeAuthServer();
  rs = await startInProcess(auth.url, { maxBodyBytes: 1024, authMaxBodyBytes: 1024 });
});
test.after.always(async () => {
  await rs?.close();
  await auth?.close();
});

type Echo = { method: string; url: string; headers: Record<string, string>; body: string };

test('/auth/* is forwarded with method, path, query, headers, body and cookies', async (t) => {
  const res = await request(`${rs.url}/auth/token?x=1`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Basic abc', cookie: 'a=b' },
    body: 'grant_type=password&username=bob',
  });
  t.is(res.status, 200);
  const echo = res.body as Echo;
  t.is(echo.method, 'POST');
  t.is(echo.url, '/auth/token?x=1');
  t.is(echo.body, 'grant_type=password&username=bob');
  t.is(echo.headers.authorization, 'Basic abc');
  t.is(echo.headers.cookie, 'a=b');
  t.is(res.headers.get('set-cookie'), 'fake=1; Path=/auth');
});

test('X-Forwarded-For/Proto/Host are set by the edge; spoofed values are replaced', async (t) => {
  const res = await request(`${rs.url}/auth/code`, {
    headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', 'x-forwarded-for': '6.6.6.6' },
  });
  const { headers } = res.body as Echo;
  t.is(headers['x-forwarded-host'], new URL(rs.url).host);
  t.is(headers['x-forwarded-proto'], 'http');
  t.is(headers['x-forwarded-for'], '127.0.0.1');
  t.is(headers.host, new URL(rs.url).host, 'Host is kept');
});

test('with trustProxy (one hop) the proxy\'s Proto and Host are kept, and For is the one client address judged', async (t) => {
  const trusting = await startInProcess(auth.url, { trustProxy: true });
  try {
    const res = await request(`${trusting.url}/auth/code`, {
      headers: { 'x-forwarded-host': 'heroes.example', 'x-forwarded-proto': 'https', 'x-forwarded-for': '6.6.6.6, 10.0.0.1', forwarded: 'for=6.6.6.6' },
    });
    const { headers } = res.body as Echo;
    t.is(headers['x-forwarded-host'], 'heroes.example');
    t.is(headers['x-forwarded-proto'], 'https');
    t.is(headers['x-forwarded-for'], '10.0.0.1', 'the right-most entry: what the trusted proxy wrote');
    t.is(headers.forwarded, undefined);
  } finally {
    await trusting.close();
  }
});

test('/.well-known/* is forwarded, /authx and /wellknown are not', async (t) => {
  const wk = await request(`${rs.url}/.well-known/oauth-authorization-server`);
  t.is((wk.body as Echo).url, '/.well-known/oauth-authorization-server');
  t.is((await request(`${rs.url}/authx`)).status, 404);
  t.is((await request(`${rs.url}/auth`)).status, 200);
});

/** PUT of `body` in two chunks (no Content-Length: chunked) to `path` of the edge. */
function putChunked(path: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${rs.url}${path}`, { method: 'PUT', headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.write(body.slice(0, body.length / 2));
    req.end(body.slice(body.length / 2));
  });
}

test('a chunked body within the limit is read whole at the edge, then forwarded with its Content-Length, untouched', async (t) => {
  const body = 'x'.repeat(1024);
  const answer = await putChunked('/auth/anything', body);
  t.is(answer.status, 200);
  const echoed = JSON.parse(answer.text) as Echo;
  t.is(echoed.body, body);
  t.is(echoed.headers['content-length'], '1024');
  t.is(echoed.headers['transfer-encoding'], undefined);
});

test('a chunked body growing past the limit → 413 at the edge, nothing forwarded', async (t) => {
  const answer = await putChunked('/auth/anything', 'x'.repeat(4 * 1024));
  t.is(answer.status, 413);
  t.deepEqual(JSON.parse(answer.text), { error: 'entity length exceeds maximum' });
  const local = await request(`${rs.url}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(64 * 1024) });
  t.is(local.status, 413, 'local routes keep the limit');
});

test('a forwarded request announcing more than the body limit → 413 at the edge, nothing forwarded', async (t) => {
  const under = await request(`${rs.url}/auth/anything`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(1024) });
  t.is(under.status, 200);
  const res = await request(`${rs.url}/auth/anything`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(1025) });
  t.is(res.status, 413);
  t.deepEqual(res.body, { error: 'entity length exceeds maximum' });
  t.is(res.headers.get('x-content-type-options'), 'nosniff');
});

test('redirects pass untouched', async (t) => {
  const upstream = http.createServer((req, res) => {
    res.writeHead(302, { location: 'https://client.example/cb?code=abc&state=xyz' }).end();
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const rs2 = await startInProcess(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
  try {
    const res = await request(`${rs2.url}/auth/code`, { method: 'POST', body: 'a=b' });
    t.is(res.status, 302);
    t.is(res.headers.get('location'), 'https://client.example/cb?code=abc&state=xyz');
  } finally {
    await rs2.close();
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  }
});

test('an authorization server that never answers → 503 after the proxy timeout (not a hang)', async (t) => {
  const upstream = http.createServer(() => {}); // accepts, never answers
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const rs2 = await startInProcess(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, { authProxyTimeoutMs: 300 });
  try {
    // The upstream never answers: only the timeout can end the request.
    const res = await request(`${rs2.url}/auth/token`, { method: 'POST', body: 'grant_type=password' });
    t.is(res.status, 503);
    t.deepEqual(res.body, { error: 'authorization server unavailable' });
  } finally {
    await rs2.close();
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  }
});
