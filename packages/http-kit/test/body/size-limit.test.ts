import http from 'node:http';
import test from 'ava';
import { readBody } from '../../src/index.ts';
import { exchange, jsonBody } from '@heroes/test-kit';
import { request, serve } from '../_helpers/serve.ts';

const LIMIT = 1000;

function echoLength(app: import('koa')) {
  app.use(async (ctx) => {
    const body = await readBody(ctx, { expect: 'bytes' });
    ctx.body = { length: (body as Buffer).length };
  });
}

test('a body of exactly maxBodyBytes with Content-Length is accepted', async (t) => {
  const { port } = await serve(t, echoLength, { maxBodyBytes: LIMIT });
  const res = await request(port, { body: Buffer.alloc(LIMIT, 1) });
  t.is(res.status, 200);
  t.deepEqual(res.json(), { length: LIMIT });
});

test('413 when Content-Length exceeds the limit by one byte', async (t) => {
  const { port } = await serve(t, echoLength, { maxBodyBytes: LIMIT });
  const res = await request(port, { body: Buffer.alloc(LIMIT + 1, 1) });
  t.is(res.status, 413);
  t.deepEqual(res.json(), { error: 'entity length exceeds maximum' });
  t.regex(String(res.headers['content-type']), /^application\/json/);
});

test('a chunked body of exactly maxBodyBytes is accepted', async (t) => {
  const { port } = await serve(t, echoLength, { maxBodyBytes: LIMIT });
  const res = await request(port, { chunks: [Buffer.alloc(600, 1), Buffer.alloc(400, 2)] });
  t.is(res.status, 200);
  t.deepEqual(res.json(), { length: LIMIT });
});

test('413 when a chunked body without Content-Length grows past the limit', async (t) => {
  const { port } = await serve(t, echoLength, { maxBodyBytes: LIMIT });
  const res = await request(port, { chunks: [Buffer.alloc(600, 1), Buffer.alloc(401, 2), Buffer.alloc(5000, 3)] });
  t.is(res.status, 413);
  t.deepEqual(res.json(), { error: 'entity length exceeds maximum' });
});

test('after a 413 for a chunked body the keep-alive connection is reused and the server keeps serving', async (t) => {
  const { port } = await serve(t, echoLength, { maxBodyBytes: LIMIT });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());
  const first = await request(port, { agent, chunks: [Buffer.alloc(800), Buffer.alloc(800), Buffer.alloc(800)] });
  t.is(first.status, 413);
  t.not(first.headers['connection'], 'close');
  const second = await request(port, { agent, body: Buffer.alloc(LIMIT) });
  t.is(second.status, 200);
  t.is(second.socket, first.socket, 'the same socket served both requests');
  const third = await request(port, { agent, chunks: [Buffer.alloc(LIMIT), Buffer.alloc(5)] });
  t.is(third.status, 413);
  const fourth = await request(port, { agent, body: '{}', headers: { 'content-type': 'application/json' } });
  t.is(fourth.status, 200);
  t.is(fourth.socket, first.socket);
});

test('an announced Content-Length over the limit → 413 with Connection: close; the connection is closed, the server keeps serving', async (t) => {
  const { port } = await serve(t, echoLength, { maxBodyBytes: LIMIT });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());
  const first = await request(port, { agent, body: Buffer.alloc(LIMIT) });
  t.is(first.status, 200);
  const tooBig = await request(port, { agent, body: Buffer.alloc(LIMIT + 5) });
  t.is(tooBig.status, 413);
  t.deepEqual(tooBig.json(), { error: 'entity length exceeds maximum' });
  t.is(tooBig.headers['connection'], 'close');
  const next = await request(port, { agent, body: '{}', headers: { 'content-type': 'application/json' } });
  t.is(next.status, 200);
  t.not(next.socket, tooBig.socket, 'the refused connection was not reused');
});

test('a raw request announcing Content-Length: 99999999 and sending 6 bytes gets 413 while the body is still missing, and the socket is closed', async (t) => {
  const { port } = await serve(t, echoLength);
  const res = await exchange(port, 'POST /register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 99999999\r\n\r\n{"a":1', { waitMs: 4_000 });
  t.regex(res.text, /^HTTP\/1\.1 413 /);
  t.regex(res.text, /\r\nconnection: close\r\n/i);
  t.deepEqual(jsonBody(res.text), { error: 'entity length exceeds maximum' });
  t.true(res.closed, 'the server closed the connection');
});

test('an announced Content-Length over the limit is refused even on a route that never reads the body', async (t) => {
  const { port } = await serve(t, (app) => app.use((ctx) => {
    ctx.body = { ok: true };
  }), { maxBodyBytes: LIMIT });
  const res = await exchange(port, `PUT /x HTTP/1.1\r\nHost: x\r\nContent-Length: ${LIMIT + 1}\r\n\r\n`, { waitMs: 4_000 });
  t.regex(res.text, /^HTTP\/1\.1 413 /);
  t.true(res.closed);
});

test('the default limit is 10 MiB: exactly 10 MiB passes, one byte more is 413', async (t) => {
  const { port, kit } = await serve(t, echoLength);
  t.is(kit.options.maxBodyBytes, 10 * 1024 * 1024);
  const ok = await request(port, { body: Buffer.alloc(10 * 1024 * 1024) });
  t.is(ok.status, 200);
  t.deepEqual(ok.json(), { length: 10 * 1024 * 1024 });
  const tooBig = await request(port, { chunks: [Buffer.alloc(5 * 1024 * 1024), Buffer.alloc(5 * 1024 * 1024 + 1)] });
  t.is(tooBig.status, 413);
});

test('413 also through fetch with a known length', async (t) => {
  const { url } = await serve(t, echoLength, { maxBodyBytes: LIMIT });
  const res = await fetch(url, { method: 'POST', body: Buffer.alloc(LIMIT * 3) });
  t.is(res.status, 413);
  t.deepEqual(await res.json(), { error: 'entity length exceeds maximum' });
});

test('a client that stops sending after an over-limit Content-Length gets 413 with Connection: close', async (t) => {
  const { port } = await serve(t, echoLength, { maxBodyBytes: LIMIT });
  const status = await new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1', port, method: 'POST', path: '/', agent: false,
      headers: { 'content-length': LIMIT * 100 },
    }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, connection: res.headers['connection'] });
      req.destroy();
    });
    req.on('error', () => undefined);
    req.write(Buffer.alloc(10));
    setTimeout(() => reject(new Error('no answer')), 15_000).unref();
  });
  t.deepEqual(status, { status: 413, connection: 'close' });
  const next = await request(port, { body: Buffer.alloc(10) });
  t.is(next.status, 200, 'the server keeps serving');
});
