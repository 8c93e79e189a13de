import http from 'node:http';
import test from 'ava';
import { DEFAULTS, readBody } from '@heroes/http-kit';
import { configureServer, handleClientErrors } from '../../src/index.ts';
import { exchange, jsonBody } from '@heroes/test-kit';
import { request, serve } from '../_helpers/serve.ts';

function echo(app: import('koa')) {
  app.use(async (ctx) => {
    ctx.body = { value: await readBody(ctx, { required: false }) ?? null };
  });
}

test('configureServer sets sane request and header timeouts (Node: 300 s and 60 s)', (t) => {
  const server = http.createServer();
  const resolved = configureServer(server);
  t.deepEqual(resolved, {
    maxBodyBytes: DEFAULTS.maxBodyBytes,
    requestTimeoutMs: 30_000,
    headersTimeoutMs: 15_000,
    connectionsCheckingIntervalMs: 1_000,
  });
  t.is(server.requestTimeout, 30_000);
  t.is(server.headersTimeout, 15_000);
  t.true(Object.isFrozen(resolved));
});

test('configureServer takes its options; headers never get longer than the whole request', (t) => {
  const server = http.createServer();
  const resolved = configureServer(server, { requestTimeoutMs: 5_000, headersTimeoutMs: 9_000, maxBodyBytes: 10 });
  t.is(server.requestTimeout, 5_000);
  t.is(server.headersTimeout, 5_000);
  t.is(resolved.maxBodyBytes, 10);
  t.throws(() => configureServer(http.createServer(), { requestTimeoutMs: -1 }), { instanceOf: TypeError });
});

test('a client that stalls mid-body gets 408 JSON after requestTimeoutMs and is disconnected', async (t) => {
  const { port } = await serve(t, echo, {}, { requestTimeoutMs: 1_000, connectionsCheckingIntervalMs: 100 });
  const res = await exchange(port, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n{"a":', { waitMs: 20_000 });
  t.regex(res.text, /^HTTP\/1\.1 408 /);
  t.deepEqual(jsonBody(res.text), { error: 'request timeout' });
  t.true(res.closed);
  t.true(res.ms >= 900, `closed after ${Math.round(res.ms)} ms`);
});

test('headers over 16 KiB → 431 JSON, connection closed', async (t) => {
  const { port } = await serve(t, echo, {}, {});
  const res = await exchange(port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
  t.regex(res.text, /^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
  t.regex(res.text, /\r\nContent-Type: application\/json; charset=utf-8\r\n/);
  t.regex(res.text, /\r\nConnection: close\r\n/);
  t.deepEqual(jsonBody(res.text), { error: 'request header fields too large' });
  t.true(res.closed);
});

test('a malformed request line → 400 JSON, connection closed', async (t) => {
  const { port } = await serve(t, echo, {}, {});
  const res = await exchange(port, 'THIS IS NOT HTTP\r\n\r\n');
  t.regex(res.text, /^HTTP\/1\.1 400 Bad Request\r\n/);
  t.deepEqual(jsonBody(res.text), { error: 'bad request' });
  t.true(res.closed);
});

test('a malformed second request on a keep-alive connection gets its own 400 after the first answer', async (t) => {
  const { port } = await serve(t, echo, {}, {});
  const res = await exchange(port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n');
  const answers = res.text.split(/(?=HTTP\/1\.1 )/);
  t.is(answers.length, 2);
  t.regex(answers[0]!, /^HTTP\/1\.1 200 /);
  t.regex(answers[1]!, /^HTTP\/1\.1 400 /);
  t.deepEqual(jsonBody(answers[1]!), { error: 'bad request' });
  t.true(res.closed);
});

async function listenRaw(t: import('ava').ExecutionContext, handler: http.RequestListener): Promise<number> {
  const server = http.createServer(handler);
  handleClientErrors(server);
  handleClientErrors(server); // idempotent: one listener
  t.is(server.listenerCount('clientError'), 1);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  return (server.address() as import('node:net').AddressInfo).port;
}

test('handleClientErrors never writes into a half-sent response: the socket is closed instead', async (t) => {
  const port = await listenRaw(t, (req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('partial');
    // The request's body is still incomplete when it times out.
    setTimeout(() => req.socket.emit('error', Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' })), 50);
  });
  const res = await exchange(port, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nab');
  t.regex(res.text, /^HTTP\/1\.1 200 /);
  t.notRegex(res.text, /408|request timeout/);
  t.true(res.closed);
});

test('a parser error behind a complete request waits for its response to finish, then answers', async (t) => {
  const port = await listenRaw(t, (req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('partial');
    setTimeout(() => req.socket.emit('error', Object.assign(new Error('parse'), { code: 'HPE_INVALID_METHOD' })), 30);
    setTimeout(() => res.end('-rest'), 100);
  });
  const res = await exchange(port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n');
  const answers = res.text.split(/(?=HTTP\/1\.1 )/);
  t.is(answers.length, 2);
  t.regex(answers[0]!, /partial[\s\S]*-rest/);
  t.regex(answers[1]!, /^HTTP\/1\.1 400 /);
  t.true(res.closed);
});

test('without configureServer Node answers parser errors with an empty body (what it replaces)', async (t) => {
  const { port } = await serve(t, echo);
  const res = await exchange(port, 'THIS IS NOT HTTP\r\n\r\n');
  t.is(res.text, 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  const ok = await request(port);
  t.is(ok.status, 200);
});

test('HTTP/1.1 without Host → 400 JSON (RFC 9112 section 3.2), connection closed', async (t) => {
  const { port } = await serve(t, echo, {}, {});
  const res = await exchange(port, 'GET / HTTP/1.1\r\n\r\n');
  t.regex(res.text, /^HTTP\/1\.1 400 Bad Request\r\n/);
  t.regex(res.text, /\r\nContent-Type: application\/json; charset=utf-8\r\n/);
  t.regex(res.text, /\r\nConnection: close\r\n/i);
  t.deepEqual(jsonBody(res.text), { error: 'missing Host header' });
  t.true(res.closed);
  // HTTP/1.0 may omit it.
  t.regex((await exchange(port, 'GET / HTTP/1.0\r\n\r\n')).text, /^HTTP\/1\.1 200 /);
});

test('an expectation other than 100-continue → 417 JSON (RFC 9110 section 10.1.1)', async (t) => {
  const { port } = await serve(t, echo, {}, {});
  const res = await exchange(port, 'GET / HTTP/1.1\r\nHost: x\r\nExpect: foo\r\n\r\n', { until: /\}$/ });
  t.regex(res.text, /^HTTP\/1\.1 417 Expectation Failed\r\n/);
  t.regex(res.text, /\r\nContent-Type: application\/json; charset=utf-8\r\n/);
  t.deepEqual(jsonBody(res.text), { error: 'unsupported expectation' });
});

test('a second Host, Content-Length, Content-Type or Authorization → 400 JSON (RFC 9110 section 5.3, RFC 9112 section 3.2), connection closed', async (t) => {
  const { port } = await serve(t, echo, {}, {});
  const shapes: Array<[string, string]> = [
    ['Host', 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n'],
    ['Content-Length', 'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}'],
    ['Content-Type', 'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\ncontent-type: text/plain\r\nContent-Length: 2\r\n\r\n{}'],
    ['Authorization', 'GET / HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\r\nAUTHORIZATION: Bearer b\r\n\r\n'],
  ];
  for (const [name, raw] of shapes) {
    const res = await exchange(port, raw, { until: /\}$/ });
    t.regex(res.text, /^HTTP\/1\.1 400 Bad Request\r\n/, name);
    t.regex(res.text, /\r\nContent-Type: application\/json; charset=utf-8\r\n/, name);
    t.regex(res.text, /\r\nConnection: close\r\n/i, name);
    t.is(typeof (jsonBody(res.text) as { error?: unknown }).error, 'string', name);
  }
  // Once each, and repeated headers that may repeat, are served.
  const fine = await exchange(port, 'GET / HTTP/1.1\r\nHost: x\r\nAccept: a\r\nAccept: b\r\nAuthorization: Bearer a\r\nConnection: close\r\n\r\n');
  t.regex(fine.text, /^HTTP\/1\.1 200 /);
});

test('a HEAD request the parser refuses gets the JSON error head without a body (RFC 9110 section 9.3.2)', async (t) => {
  const { port } = await serve(t, echo, {}, {});
  const res = await exchange(port, 'HEAD / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nab');
  t.regex(res.text, /^HTTP\/1\.1 400 Bad Request\r\n/);
  t.regex(res.text, /\r\nContent-Type: application\/json; charset=utf-8\r\n/);
  t.true(res.text.endsWith('\r\n\r\n'), 'nothing after the head');
});
