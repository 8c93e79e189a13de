import { gunzipSync } from 'node:zlib';
import test from 'ava';
import type Koa from 'koa';
import { createDefaultRegistry, shouldCompress } from '../../src/index.ts';
import { acceptsGzipOutright, SYNC_GZIP_LIMIT } from '../../src/compression/sync-gzip.ts';
import { request, serve } from '../_helpers/serve.ts';

const big = { items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `hero ${i}` })) };

function routes(app: Koa) {
  app.use((ctx) => {
    if (ctx.path === '/json') ctx.body = big;
    if (ctx.path === '/small') ctx.body = { a: 1 };
    if (ctx.path === '/text') ctx.body = 'x'.repeat(5000);
    if (ctx.path === '/form') {
      ctx.body = { a: 'y'.repeat(5000) };
      ctx.type = 'application/x-www-form-urlencoded';
    }
    if (ctx.path === '/png') {
      ctx.body = Buffer.alloc(5000, 7);
      ctx.type = 'image/png';
    }
    if (ctx.path === '/octets') ctx.body = Buffer.alloc(5000, 7);
    if (ctx.path === '/events') {
      ctx.body = 'data: x\n\n'.repeat(500);
      ctx.type = 'text/event-stream';
    }
  });
}

test('JSON is gzipped when Accept-Encoding allows gzip, and the payload round-trips', async (t) => {
  const { port } = await serve(t, routes);
  const res = await request(port, { path: '/json', headers: { 'accept-encoding': 'gzip' } });
  t.is(res.status, 200);
  t.is(res.headers['content-encoding'], 'gzip');
  t.regex(String(res.headers['vary']), /accept-encoding/i);
  t.deepEqual(JSON.parse(gunzipSync(res.body).toString('utf8')), big);
});

test('an in-memory body is gzipped whole: Content-Length, not chunked, so a dying process never leaves a truncated answer', async (t) => {
  const { port } = await serve(t, routes);
  for (const path of ['/json', '/text', '/small']) {
    const res = await request(port, { path, headers: { 'accept-encoding': 'gzip' } });
    t.is(res.headers['content-encoding'], 'gzip', path);
    t.is(res.headers['transfer-encoding'], undefined, path);
    t.is(res.headers['content-length'], String(res.body.length), path);
    t.true(gunzipSync(res.body).length > 0, path);
  }
});

test('no gzip without Accept-Encoding, with identity only, or with gzip;q=0', async (t) => {
  const { port } = await serve(t, routes);
  const variants: Array<Record<string, string>> = [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'gzip;q=0, br' }, { 'accept-encoding': 'br, deflate, zstd' }];
  for (const headers of variants) {
    const res = await request(port, { path: '/json', headers });
    t.is(res.headers['content-encoding'], undefined, JSON.stringify(headers));
    t.deepEqual(res.json(), big);
  }
});

test('text/* and form responses are gzipped', async (t) => {
  const { port } = await serve(t, routes);
  for (const path of ['/text', '/form']) {
    const res = await request(port, { path, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    t.is(res.headers['content-encoding'], 'gzip', path);
  }
});

test('image/png, unregistered types and text/event-stream are never gzipped', async (t) => {
  const { port } = await serve(t, routes);
  for (const path of ['/png', '/octets', '/events']) {
    const res = await request(port, { path, headers: { 'accept-encoding': 'gzip' } });
    t.is(res.headers['content-encoding'], undefined, path);
    t.is(res.body.length, path === '/events' ? 4500 : 5000);
  }
});

test('bodies under a configured threshold are not gzipped', async (t) => {
  const { port, kit } = await serve(t, routes, { compressThreshold: 1024 });
  t.is(kit.options.compressThreshold, 1024);
  const res = await request(port, { path: '/small', headers: { 'accept-encoding': 'gzip' } });
  t.is(res.headers['content-encoding'], undefined);
});

test('by default (threshold 0) even small eligible bodies are gzipped', async (t) => {
  const { port } = await serve(t, routes);
  const res = await request(port, { path: '/small', headers: { 'accept-encoding': 'gzip' } });
  t.is(res.headers['content-encoding'], 'gzip');
  t.is(gunzipSync(res.body).toString('utf8'), '{"a":1}');
});

test('error bodies are gzipped like any JSON response (compression is last)', async (t) => {
  const { port } = await serve(t, (app) => {
    app.use(() => {
      throw Object.assign(new Error('x'.repeat(3000)), { status: 400, expose: true });
    });
  });
  const res = await request(port, { headers: { 'accept-encoding': 'gzip' } });
  t.is(res.status, 400);
  t.is(res.headers['content-encoding'], 'gzip');
  t.is((JSON.parse(gunzipSync(res.body).toString('utf8')) as { error: string }).error.length, 3000);
});

test('HEAD sends the header fields GET sends: Content-Encoding gzip, Vary, the gzipped Content-Length (RFC 9110 section 9.3.2)', async (t) => {
  const { port } = await serve(t, routes);
  for (const path of ['/json', '/text']) {
    const get = await request(port, { path, headers: { 'accept-encoding': 'gzip' } });
    const head = await request(port, { method: 'HEAD', path, headers: { 'accept-encoding': 'gzip' } });
    t.is(head.status, 200, path);
    t.is(head.body.length, 0, path);
    for (const name of ['content-encoding', 'vary', 'content-type', 'content-length']) {
      t.is(head.headers[name], get.headers[name], `${path} ${name}`);
    }
    t.is(head.headers['content-encoding'], 'gzip', path);
    t.truthy(head.headers['content-length'], path);
  }
});

test('HEAD without gzip, or for a type never compressed, keeps the identity Content-Length', async (t) => {
  const { port } = await serve(t, routes);
  const json = await request(port, { method: 'HEAD', path: '/json' });
  t.is(json.headers['content-encoding'], undefined);
  t.is(json.headers['content-length'], String(Buffer.byteLength(JSON.stringify(big))));
  const png = await request(port, { method: 'HEAD', path: '/png', headers: { 'accept-encoding': 'gzip' } });
  t.is(png.headers['content-encoding'], undefined);
  t.is(png.headers['content-length'], '5000');
});

test('shouldCompress follows the registry entry', (t) => {
  const registry = createDefaultRegistry();
  t.true(shouldCompress(registry, 'application/json'));
  t.true(shouldCompress(registry, 'text/html'));
  t.true(shouldCompress(registry, 'application/javascript'));
  t.false(shouldCompress(registry, 'image/png'));
  t.false(shouldCompress(registry, 'text/event-stream'));
  t.false(shouldCompress(registry, undefined));
  t.true(shouldCompress(registry.register('image/svg+xml', { compress: true }), 'image/svg+xml'));
});

for (const refusal of ['identity;q=0', '*;q=0', 'gzip;q=0, identity;q=0']) {
  test(`Accept-Encoding: ${refusal} → the body without a content coding (RFC 9110 section 12.5.3), never a 500`, async (t) => {
    const { port } = await serve(t, (app) => {
      app.use(async (ctx, next) => {
        if (ctx.path === '/missing') ctx.throw(404);
        await next();
      });
      routes(app);
    });
    const ok = await request(port, { path: '/json', headers: { 'accept-encoding': refusal } });
    t.is(ok.status, 200);
    t.is(ok.headers['content-encoding'], undefined);
    t.deepEqual(ok.json(), big);
    const missing = await request(port, { path: '/missing', headers: { 'accept-encoding': refusal } });
    t.is(missing.status, 404);
    t.is(missing.headers['x-content-type-options'], 'nosniff');
    t.deepEqual(missing.json(), { error: 'Not Found' });
  });
}

test('gzip;q=1, identity;q=0 is still gzipped', async (t) => {
  const { port } = await serve(t, routes);
  const res = await request(port, { path: '/json', headers: { 'accept-encoding': 'gzip;q=1, identity;q=0' } });
  t.is(res.headers['content-encoding'], 'gzip');
  t.deepEqual(JSON.parse(gunzipSync(res.body).toString('utf8')), big);
});

// A string of exactly `length` bytes, varied enough that gzip's output depends on every byte.
function textOf(length: number): string {
  let text = '';
  for (let i = 0; text.length < length; i++) text += `hero ${i} flies at ${(i * 7919) % 1000} km/h; `;
  return text.slice(0, length);
}

test('in-memory bodies at, just above and far above the synchronous gzip limit: gzipped whole with their gzipped Content-Length, round-trip', async (t) => {
  const bodies = new Map([
    ['/at-limit', textOf(SYNC_GZIP_LIMIT)],
    ['/above-limit', textOf(SYNC_GZIP_LIMIT + 1)],
    ['/far-above', textOf(4 * SYNC_GZIP_LIMIT)],
  ]);
  const { port } = await serve(t, (app) => {
    app.use((ctx) => {
      ctx.body = bodies.get(ctx.path);
    });
  });
  for (const [path, text] of bodies) {
    const res = await request(port, { path, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    t.is(res.headers['content-encoding'], 'gzip', path);
    t.regex(String(res.headers['vary']), /accept-encoding/i, path);
    t.is(res.headers['transfer-encoding'], undefined, path);
    t.is(res.headers['content-length'], String(res.body.length), path);
    t.true(res.body.length < text.length, path);
    t.is(gunzipSync(res.body).toString('utf8'), text, path);
  }
});

test('a small body is gzipped to the same bytes whichever way gzip was asked for (bare gzip, *, or with q-values)', async (t) => {
  const { port } = await serve(t, routes);
  const bytes = new Set<string>();
  for (const acceptEncoding of ['gzip', '*', 'gzip;q=0.8, identity;q=0.5', 'br;q=1, GZIP;q=1']) {
    const res = await request(port, { path: '/json', headers: { 'accept-encoding': acceptEncoding } });
    t.is(res.headers['content-encoding'], 'gzip', acceptEncoding);
    t.is(res.headers['content-length'], String(res.body.length), acceptEncoding);
    t.deepEqual(JSON.parse(gunzipSync(res.body).toString('utf8')), big, acceptEncoding);
    bytes.add(res.body.toString('base64'));
  }
  t.is(bytes.size, 1);
});

test('acceptsGzipOutright: only a bare gzip entry or * alone, which koa-compress surely answers with gzip', (t) => {
  for (const header of ['gzip', 'gzip, deflate, br, zstd', 'deflate, gzip', ' GZip ', '*']) t.true(acceptsGzipOutright(header), header);
  for (const header of [undefined, '', 'identity', 'gzip;q=0', 'gzip;q=0.5, identity', 'br', '*;q=1', 'x-gzip']) {
    t.false(acceptsGzipOutright(header), String(header));
  }
});

test('gzip with identity preferred by q-value stays identity (koa-compress negotiates it, not the synchronous path)', async (t) => {
  const { port } = await serve(t, routes);
  const res = await request(port, { path: '/small', headers: { 'accept-encoding': 'gzip;q=0.5, identity' } });
  t.is(res.headers['content-encoding'], undefined);
  t.deepEqual(res.json(), { a: 1 });
});

test('the same body again is gzipped to the same answer; a body changed in place, or another one, is gzipped anew', async (t) => {
  const shared = Buffer.from(JSON.stringify({ heroes: ['Narco', 'Bombasto'] }));
  const { port } = await serve(t, (app) => {
    app.use((ctx) => {
      ctx.type = 'application/json';
      ctx.body = ctx.path === '/other' ? { other: true } : shared;
    });
  });
  const gzipped = async (path = '/') => {
    const res = await request(port, { path, headers: { 'accept-encoding': 'gzip' } });
    t.is(res.headers['content-encoding'], 'gzip');
    t.is(res.headers['content-length'], String(res.body.length));
    return gunzipSync(res.body).toString('utf8');
  };
  t.is(await gzipped(), '{"heroes":["Narco","Bombasto"]}');
  t.is(await gzipped(), '{"heroes":["Narco","Bombasto"]}');
  shared.write('Magma', 12); // same length, changed in place by its owner
  t.is(await gzipped(), '{"heroes":["Magma","Bombasto"]}');
  t.is(await gzipped('/other'), '{"other":true}');
  t.is(await gzipped(), '{"heroes":["Magma","Bombasto"]}');
});
