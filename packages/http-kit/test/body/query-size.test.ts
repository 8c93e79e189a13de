import test from 'ava';
import { request, serve } from '../_helpers/serve.ts';

test('a query of 1,000 parameters reaches the route; 1,001 → 400 JSON before it', async (t) => {
  let reached = 0;
  const { port } = await serve(t, (app) => {
    app.use((ctx) => {
      reached += 1;
      ctx.body = { count: Object.keys(ctx.query).length };
    });
  });
  const query = (n: number) => Array.from({ length: n }, (_, i) => `k${i}=v`).join('&');
  const ok = await request(port, { path: `/?${query(1000)}&&` });
  t.is(ok.status, 200);
  t.deepEqual(ok.json(), { count: 1000 });
  const res = await request(port, { path: `/?${query(1001)}` });
  t.is(res.status, 400);
  t.deepEqual(res.json(), { error: 'too many query parameters' });
  t.is(reached, 1);
});

test('the query limit is an option', async (t) => {
  const { port } = await serve(t, (app) => {
    app.use((ctx) => {
      ctx.body = {};
    });
  }, { maxQueryParameters: 2 });
  t.is((await request(port, { path: '/?a&b' })).status, 200);
  t.is((await request(port, { path: '/?a&b&c' })).status, 400);
});
