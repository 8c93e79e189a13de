import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import Koa from 'koa';
import Router from '@koa/router';
import { createIpAllowList, createMetrics, parseCidrList } from '../../src/index.ts';

async function serve(app: Koa, host = '127.0.0.1'): Promise<{ base: string; close(): void }> {
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

test('requests are counted by method, route template and status, with durations; process metrics included', async (t) => {
  const metrics = createMetrics();
  let depth = 3;
  metrics.gauge('queue_depth', 'items waiting', () => depth);
  const app = new Koa();
  app.use(metrics.middleware);
  const router = new Router();
  router.get('/heroes/:id', (ctx) => {
    ctx.body = { id: ctx.params['id'] };
  });
  app.use(router.routes());
  const { base, close } = await serve(app);
  t.teardown(close);

  for (const id of ['1', '2', '3']) await (await fetch(`${base}/heroes/${id}`)).arrayBuffer();
  await (await fetch(`${base}/no/such/path/${'x'.repeat(20)}`)).arrayBuffer();
  depth = 7;
  const res = await fetch(`${base}/metrics`);
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  t.regex(text, /^http_requests_total\{method="GET",route="\/heroes\/:id",status="200"\} 3$/m);
  t.regex(text, /^http_requests_total\{method="GET",route="unmatched",status="404"\} 1$/m);
  t.regex(text, /^http_request_duration_seconds_count\{method="GET",route="\/heroes\/:id",status="200"\} 3$/m);
  t.regex(text, /^http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/heroes\/:id",status="200"\} \d+$/m);
  t.regex(text, /^queue_depth 7$/m);
  t.regex(text, /^process_cpu_seconds_total \d/m);
  t.regex(text, /^nodejs_eventloop_lag_seconds \d/m);
  t.notRegex(text, /heroes\/1|x{20}/, 'no raw paths in labels');
});

test('/metrics is refused to peers outside loopback and METRICS_ALLOW', async (t) => {
  const allowed = createIpAllowList(parseCidrList('10.1.0.0/16, fd00::/8'));
  t.true(allowed('127.0.0.1'));
  t.true(allowed('::1'));
  t.true(allowed('::ffff:127.0.0.1'));
  t.true(allowed('10.1.200.3'));
  t.true(allowed('::ffff:10.1.0.9'));
  t.true(allowed('fd12::1'));
  t.false(allowed('10.2.0.1'));
  t.false(allowed('192.168.1.1'));
  t.false(allowed('fe80::1'));
  t.false(allowed(undefined));

  // A real non-loopback peer: this machine's own non-loopback address, when it has one.
  const { networkInterfaces } = await import('node:os');
  const external = Object.values(networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
  if (!external) return t.pass('no non-loopback interface here');
  const app = new Koa();
  app.use(createMetrics().middleware);
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  t.teardown(() => server.close());
  const res = await fetch(`http://${external}:${(server.address() as AddressInfo).port}/metrics`);
  t.is(res.status, 403);
  t.regex(((await res.json()) as { error: string }).error, /loopback/);
});
