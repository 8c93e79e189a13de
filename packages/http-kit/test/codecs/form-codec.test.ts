import test from 'ava';
import { gzipSync } from 'node:zlib';
import { FormCodec, readBody } from '../../src/index.ts';
import { request, serve } from '../_helpers/serve.ts';

const form = { 'content-type': 'application/x-www-form-urlencoded' };

test('a form body decodes to an object of strings; a repeated key to an array', async (t) => {
  const { port } = await serve(t, (app) => {
    app.use(async (ctx) => {
      ctx.body = await readBody(ctx, { expect: 'object' });
    });
  });
  const res = await request(port, {
    body: 'username=bob+smith&password=p%40ss%26word&scope=a&scope=b&empty=&flag',
    headers: form,
  });
  t.is(res.status, 200);
  t.deepEqual(res.json(), { username: 'bob smith', password: 'p@ss&word', scope: ['a', 'b'], empty: '', flag: '' });
});

test('400 for a form body with an invalid percent escape', async (t) => {
  const { port } = await serve(t, (app) => {
    app.use(async (ctx) => {
      ctx.body = await readBody(ctx);
    });
  });
  const res = await request(port, { body: 'a=%zz', headers: form });
  t.is(res.status, 400);
  t.deepEqual(res.json(), { error: 'request entity could not be decoded' });
});

test('a __proto__ form key stays a plain own property', (t) => {
  const decoded = new FormCodec().decode('__proto__=x&a=1');
  t.is(Object.getPrototypeOf(decoded), Object.prototype);
  t.deepEqual(Object.keys(decoded), ['__proto__', 'a']);
});

test('a form response is encoded from an object', async (t) => {
  const { port } = await serve(t, (app) => {
    app.use((ctx) => {
      ctx.body = { a: 'x y', list: ['1', '2'], n: 3 };
      ctx.type = 'application/x-www-form-urlencoded';
    });
  });
  const res = await request(port);
  t.is(res.text, 'a=x+y&list=1&list=2&n=3');
  t.is(res.headers['content-type'], 'application/x-www-form-urlencoded; charset=utf-8');
});

test('percent escapes are bytes in the declared charset (one decoder for both servers)', (t) => {
  const codec = new FormCodec();
  t.deepEqual(codec.decode('p=p%E4ss', 'iso-8859-1'), { p: 'päss' });
  t.deepEqual(codec.decode('p=p%C3%A4ss', 'utf-8'), { p: 'päss' });
  t.deepEqual(codec.decode('p=%80', 'windows-1252'), { p: '€' });
  t.deepEqual(codec.decode('a=%EF%BB%BFx'), { a: '\ufeffx' }, 'an escaped BOM is content');
  t.deepEqual(codec.decode('a=%00'), { a: '\u0000' }, 'NUL is kept: the application decides');
});

test('malformed escapes throw: invalid, lone %, latin1 byte or encoded surrogate in UTF-8', (t) => {
  const codec = new FormCodec();
  for (const body of ['a=%zz', 'a=100%', 'a=%E4', 'a=%ED%A0%80']) t.throws(() => codec.decode(body, 'utf-8'), undefined, body);
});

test('a latin1 form through readBody: the Content-Type charset decodes the escapes', async (t) => {
  const { port } = await serve(t, (app) => {
    app.use(async (ctx) => {
      ctx.body = await readBody(ctx, { expect: 'object' });
    });
  });
  const res = await request(port, { body: 'p=p%E4ss', headers: { 'content-type': 'application/x-www-form-urlencoded; charset=iso-8859-1' } });
  t.is(res.status, 200);
  t.deepEqual(res.json(), { p: 'päss' });
});

test('repeated keys are appended in order, 1,000 of them in one array', (t) => {
  const decoded = new FormCodec().decode(Array.from({ length: 1000 }, (_, i) => `a=${i}`).join('&'));
  t.is(decoded.a?.length, 1000);
  t.is((decoded.a as string[])[999], '999');
});

test('more than 1,000 parameters → 413 JSON, counted without decoding; empty parts do not count', async (t) => {
  const { port } = await serve(t, (app) => {
    app.use(async (ctx) => {
      const body = (await readBody(ctx, { expect: 'object' })) as Record<string, unknown>;
      ctx.body = { keys: Object.keys(body).length };
    });
  });
  const allowed = `${'a&'.repeat(1000)}&&&`;
  t.is((await request(port, { body: allowed, headers: form })).status, 200);
  const res = await request(port, { body: 'a&'.repeat(1001), headers: form });
  t.is(res.status, 413);
  t.deepEqual(res.json(), { error: 'too many form parameters' });
});

test('a gzip-encoded form of 100,000 repeated keys (a few hundred bytes on the wire) → 413', async (t) => {
  const { port } = await serve(t, (app) => {
    app.use(async (ctx) => {
      ctx.body = await readBody(ctx, { expect: 'object' });
    });
  });
  const body = gzipSync('a&'.repeat(100_000));
  t.true(body.length < 1000);
  const res = await request(port, { body, headers: { ...form, 'content-encoding': 'gzip' } });
  t.is(res.status, 413);
  t.deepEqual(res.json(), { error: 'too many form parameters' });
});

test('a body of 10 MB of "&" decodes to nothing, within the limit (no array of empty parts)', (t) => {
  t.deepEqual(new FormCodec().decode('&'.repeat(10 * 1024 * 1024)), {});
});
