import zlib from 'node:zlib';
import test from 'ava';
import type Koa from 'koa';
import { readBody, type ReadBodyOptions } from '../../src/index.ts';
import { request, serve } from '../_helpers/serve.ts';

const LIMIT = 1000;

function echo(options: ReadBodyOptions = {}) {
  return (app: Koa) => {
    app.use(async (ctx) => {
      const value = await readBody(ctx, options);
      ctx.body = Buffer.isBuffer(value) ? { length: value.length } : { value };
    });
  };
}

const user = { username: 'bob', password: 'pw' };
const jsonText = JSON.stringify(user);

for (const [coding, format, encode] of [
  ['gzip', 'gzip', zlib.gzipSync],
  ['x-gzip', 'gzip', zlib.gzipSync],
  ['GZIP', 'gzip', zlib.gzipSync],
  ['deflate', 'zlib', zlib.deflateSync],
  ['deflate', 'raw deflate', zlib.deflateRawSync],
  ['identity', 'plain', (text: string) => Buffer.from(text)],
] as const) {
  test(`a JSON body with Content-Encoding: ${coding} (${format}) is decoded`, async (t) => {
    const { port } = await serve(t, echo());
    const res = await request(port, {
      body: encode(jsonText),
      headers: { 'content-type': 'application/json', 'content-encoding': coding },
    });
    t.is(res.status, 200);
    t.deepEqual(res.json(), { value: user });
  });
}

test('a list of codings is undone last-first', async (t) => {
  const { port } = await serve(t, echo());
  const res = await request(port, {
    body: zlib.gzipSync(zlib.deflateSync(jsonText)),
    headers: { 'content-type': 'application/json', 'content-encoding': 'deflate, identity, gzip' },
  });
  t.is(res.status, 200);
  t.deepEqual(res.json(), { value: user });
});

test('a form body may be gzipped too', async (t) => {
  const { port } = await serve(t, echo());
  const res = await request(port, {
    body: zlib.gzipSync('username=bob&password=pw'),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' },
  });
  t.is(res.status, 200);
  t.deepEqual(res.json(), { value: user });
});

for (const coding of ['br', 'compress', 'zstd', 'gzip, br']) {
  test(`415 for Content-Encoding: ${coding}, with Accept-Encoding naming what is supported`, async (t) => {
    const { port } = await serve(t, echo());
    const res = await request(port, {
      body: jsonText,
      headers: { 'content-type': 'application/json', 'content-encoding': coding },
    });
    t.is(res.status, 415);
    t.deepEqual(res.json(), { error: `unsupported content encoding '${coding === 'gzip, br' ? 'br' : coding}'` });
    t.is(res.headers['accept-encoding'], 'gzip, deflate');
  });
}

test('400 for bytes that are not valid gzip', async (t) => {
  const { port } = await serve(t, echo());
  const res = await request(port, {
    body: jsonText,
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
  });
  t.is(res.status, 400);
  t.deepEqual(res.json(), { error: 'request entity could not be decoded' });
});

test('the limit applies to the decoded size: exactly the limit passes, one byte more (a zip bomb) is 413', async (t) => {
  const { port } = await serve(t, echo({ expect: 'bytes' }), { maxBodyBytes: LIMIT });
  const exact = await request(port, { body: zlib.gzipSync(Buffer.alloc(LIMIT)), headers: { 'content-encoding': 'gzip' } });
  t.is(exact.status, 200);
  t.deepEqual(exact.json(), { length: LIMIT });
  const over = await request(port, { body: zlib.gzipSync(Buffer.alloc(LIMIT + 1)), headers: { 'content-encoding': 'gzip' } });
  t.is(over.status, 413);
  t.deepEqual(over.json(), { error: 'entity length exceeds maximum' });
  const bomb = zlib.gzipSync(Buffer.alloc(50 * 1024 * 1024));
  t.true(bomb.length < LIMIT * 60, 'a 50 MiB body compresses to a few dozen kB');
  const { port: bigPort } = await serve(t, echo({ expect: 'bytes' }));
  const res = await request(bigPort, { body: bomb, headers: { 'content-encoding': 'gzip' } });
  t.is(res.status, 413);
  t.deepEqual(res.json(), { error: 'entity length exceeds maximum' });
});
