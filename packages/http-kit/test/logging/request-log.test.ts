import test from 'ava';
import { createLogger } from '../../src/index.ts';
import { request, serve } from '../_helpers/serve.ts';

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
  await new Promise((resolve) => setTimeout(resolve, 20));
  const lines = logs.filter((line) => line['msg'] === 'request');
  t.is(lines.length, 1);
  const line = lines[0]!;
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
  await new Promise((resolve) => setTimeout(resolve, 20));
  t.is(logs.find((line) => line['msg'] === 'request')?.['status'], 500);
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
