import net from 'node:net';
import test from 'ava';
import { readBody } from '@heroes/http-kit';
import { createClientAddress, createLogger } from '../../src/index.ts';
import { exchange, waitFor } from '@heroes/test-kit';
import { request, serve } from '../_helpers/serve.ts';

/** The request log line, once it is written (when the response closes). */
function requestLine(logs: Array<Record<string, unknown>>): Promise<Record<string, unknown>> {
  return waitFor(() => logs.find((entry) => entry['msg'] === 'request'), { message: () => `no request line in ${JSON.stringify(logs)}` });
}

test('one log line per request: method, path without query, status, ms — no headers or body', async (t) => {
  const { port, logs } = await serve(t, (app) => {
    app.use((ctx) => {
      ctx.status = 201;
      ctx.body = { ok: true };
    });
  });
  await request(port, {
    path: '/heroes/5?access_token=SECRET',
    body: '{"password":"SECRET"}',
    headers: { 'content-type': 'application/json', authorization: 'Bearer SECRET' },
  });
  const line = await requestLine(logs);
  t.is(logs.filter((entry) => entry['msg'] === 'request').length, 1);
  t.is(line['method'], 'POST');
  t.is(line['path'], '/heroes/5');
  t.is(line['status'], 201);
  t.is(typeof line['ms'], 'number');
  t.false(JSON.stringify(logs).includes('SECRET'));
});

test('the logged status is the mapped error status', async (t) => {
  const { port, logs } = await serve(t, (app) => {
    app.use(() => {
      throw new Error('boom');
    });
  });
  await request(port);
  t.is((await requestLine(logs))['status'], 500);
});

test('createLogger takes its level from LOG_LEVEL, default info', (t) => {
  const previous = process.env['LOG_LEVEL'];
  t.teardown(() => {
    if (previous === undefined) delete process.env['LOG_LEVEL'];
    else process.env['LOG_LEVEL'] = previous;
  });
  delete process.env['LOG_LEVEL'];
  t.is(createLogger('x').level, 'info');
  process.env['LOG_LEVEL'] = 'warn';
  t.is(createLogger('x').level, 'warn');
});

test('a request the client aborts before any answer is logged with status null and aborted: true (not Koa\'s 404)', async (t) => {
  let handlerStarted!: () => void;
  const started = new Promise<void>((resolve) => {
    handlerStarted = resolve;
  });
  const { port, logs } = await serve(t, (app) => {
    app.use(async (ctx) => {
      handlerStarted();
      ctx.body = await readBody(ctx);
    });
  });
  // The client goes away once the request is being handled (not after a fixed delay, which a loaded machine can outlast).
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
  });
  socket.write('POST /register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"user');
  await started;
  socket.destroy();
  t.is(received, '', 'nothing was sent');
  const line = await requestLine(logs);
  t.like(line, { method: 'POST', path: '/register', status: null, aborted: true });
});

test('a response cut off after its headers is logged with the status that was sent and aborted: true', async (t) => {
  const { port, logs } = await serve(t, (app) => {
    app.use((ctx) => {
      ctx.status = 202;
      ctx.type = 'application/octet-stream';
      ctx.res.flushHeaders();
      ctx.respond = false;
      ctx.res.write('partial');
    });
  });
  const res = await exchange(port, 'GET /slow HTTP/1.1\r\nHost: x\r\n\r\n', { waitMs: 5_000, until: /partial/ });
  t.regex(res.text, /^HTTP\/1\.1 202 /);
  const line = await requestLine(logs);
  t.like(line, { method: 'GET', path: '/slow', status: 202, aborted: true });
});

test('the line names the client by the one address rule, never by what the client wrote', async (t) => {
  const { port, logs } = await serve(t, (app) => {
    app.middleware.unshift(createClientAddress({ kind: 'hops', hops: 1 }));
    app.use((ctx) => {
      ctx.body = { ok: true };
    });
  });
  await request(port, { method: 'GET', body: '', headers: { 'x-forwarded-for': '6.6.6.6, 198.51.100.7' } });
  t.is((await requestLine(logs))?.['client'], '198.51.100.7');
});
