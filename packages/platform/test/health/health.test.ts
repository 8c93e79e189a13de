import http from 'node:http';
import test from 'ava';
import Koa from 'koa';
import { listenLocally } from '@heroes/test-kit';
import { createHealth } from '../../src/index.ts';

test('live, ready with each check named, down checks and slow checks give 503, draining gives 503', async (t) => {
  let databaseUp = true;
  const health = createHealth({
    checks: {
      database: () => (databaseUp ? true : Promise.reject(new Error('refused'))),
      slow: () => new Promise((resolve) => setTimeout(() => resolve(true), databaseUp ? 0 : 500)),
    },
    timeoutMs: 100,
    cacheMs: 0,
  });
  const app = new Koa();
  app.use(health.middleware);
  app.use((ctx) => {
    ctx.body = 'app';
  });
  const { url: base, close } = await listenLocally(http.createServer(app.callback()));
  t.teardown(close);

  const live = await fetch(`${base}/health/live`);
  t.is(live.status, 200);
  t.deepEqual(await live.json(), { status: 'live' });
  const ready = await fetch(`${base}/health/ready`);
  t.is(ready.status, 200);
  t.is(ready.headers.get('cache-control'), 'no-store');
  t.deepEqual(await ready.json(), { status: 'ready', checks: { database: 'up', slow: 'up' } });

  databaseUp = false;
  const down = await fetch(`${base}/health/ready`);
  t.is(down.status, 503);
  t.is(down.headers.get('retry-after'), '5');
  t.deepEqual(await down.json(), { status: 'unavailable', checks: { database: 'down', slow: 'down' } });

  const post = await fetch(`${base}/health/ready`, { method: 'POST' });
  t.is(post.status, 405);
  t.is(post.headers.get('allow'), 'GET, HEAD');

  databaseUp = true;
  health.markDraining();
  const draining = await fetch(`${base}/health/ready`);
  t.is(draining.status, 503);
  t.is(draining.headers.get('retry-after'), '5');
  t.deepEqual(await draining.json(), { status: 'draining' });
  t.is((await fetch(`${base}/health/live`)).status, 200, 'still live while draining');
  t.is(await (await fetch(`${base}/other`)).text(), 'app');
});
