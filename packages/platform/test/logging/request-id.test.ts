import http from 'node:http';
import test from 'ava';
import Koa from 'koa';
import { createHttpKit } from '@heroes/http-kit';
import { captureJsonLines, listenLocally, waitFor } from '@heroes/test-kit';
import { createLogger, createRequestId, createRequestLogger, currentRequestId } from '../../src/index.ts';

/** An app as the servers compose it (request id, request log, http-kit), its log lines kept; the test adds its route. */
function loggedApp() {
  const { lines, stream } = captureJsonLines();
  const logger = createLogger('test', stream);
  const app = new Koa();
  app.use(createRequestId());
  app.use(createRequestLogger(logger));
  app.use(createHttpKit({ logger }).middleware);
  return { lines, logger, app };
}

test('an id is kept when well-formed, generated otherwise, sent back, and on every log line of the request', async (t) => {
  const { lines, logger, app } = loggedApp();
  app.use(async (ctx) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    logger.info({ seen: currentRequestId() }, 'inside');
    ctx.body = { forwarded: ctx.get('x-request-id') };
  });
  const { url: base, close } = await listenLocally(http.createServer(app.callback()));
  t.teardown(close);

  const kept = await fetch(`${base}/a`, { headers: { 'x-request-id': 'edge-42.a:b' } });
  t.is(kept.headers.get('x-request-id'), 'edge-42.a:b');
  t.deepEqual(await kept.json(), { forwarded: 'edge-42.a:b' });

  for (const bad of ['has space', 'x'.repeat(129), 'quote"', '']) {
    const res = await fetch(`${base}/b`, { headers: bad ? { 'x-request-id': bad } : {} });
    const id = res.headers.get('x-request-id') ?? '';
    t.regex(id, /^[0-9a-f-]{36}$/, bad);
    t.deepEqual(await res.json(), { forwarded: id });
  }

  // Each request's line is written when its response closes, which may be after the client has read it.
  await waitFor(() => lines.filter((line) => line['msg'] === 'request').length >= 5, { message: () => JSON.stringify(lines) });
  const inside = lines.filter((line) => line['msg'] === 'inside');
  const requests = lines.filter((line) => line['msg'] === 'request');
  t.is(inside.length, 5);
  t.is(requests.length, 5);
  for (const line of [...inside, ...requests]) t.is(typeof line['reqId'], 'string');
  t.is(inside[0]!['reqId'], 'edge-42.a:b');
  t.is(inside[0]!['seen'], 'edge-42.a:b');
  t.is(requests[0]!['reqId'], 'edge-42.a:b');
  t.is(new Set(requests.map((line) => line['reqId'])).size, 5, 'one id per request');
});

test('a log line\'s fields stay on that line: the next line of the same request carries the id only', async (t) => {
  const { lines, logger, app } = loggedApp();
  app.use((ctx) => {
    logger.warn({ upstream: 'down', attempt: 1 }, 'first');
    logger.info('second');
    ctx.body = {};
  });
  const { url, close } = await listenLocally(http.createServer(app.callback()));
  t.teardown(close);
  const res = await fetch(`${url}/c`, { headers: { 'x-request-id': 'req-7' } });
  await res.arrayBuffer();
  await waitFor(() => lines.some((line) => line['msg'] === 'request'), { message: () => JSON.stringify(lines) });
  const second = lines.find((line) => line['msg'] === 'second');
  const request = lines.find((line) => line['msg'] === 'request');
  t.is(second?.['reqId'], 'req-7');
  t.false('upstream' in (second ?? {}), 'the first line\'s fields are not carried on');
  t.is(request?.['reqId'], 'req-7');
  t.false('upstream' in (request ?? {}));
});
