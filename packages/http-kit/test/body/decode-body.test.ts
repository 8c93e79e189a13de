import test from 'ava';
import iconv from 'iconv-lite';
import type Koa from 'koa';
import { readBody, type ReadBodyOptions } from '../../src/index.ts';
import { request, serve } from '../_helpers/serve.ts';

function echo(options: ReadBodyOptions = {}) {
  return (app: Koa) => {
    app.use(async (ctx) => {
      const value = await readBody(ctx, options);
      ctx.body = { value: Buffer.isBuffer(value) ? [...value] : value ?? null };
    });
  };
}

const json = { 'content-type': 'application/json' };

test('JSON object body is decoded', async (t) => {
  const { port } = await serve(t, echo());
  const res = await request(port, { body: '{"name":"Fred","n":[1,2]}', headers: json });
  t.is(res.status, 200);
  t.deepEqual(res.json(), { value: { name: 'Fred', n: [1, 2] } });
});

test('400 for malformed JSON', async (t) => {
  const { port } = await serve(t, echo());
  const res = await request(port, { body: '{"name":', headers: json });
  t.is(res.status, 400);
  t.deepEqual(res.json(), { error: 'request entity could not be decoded' });
});

test('400 for invalid UTF-8 bytes in a JSON body', async (t) => {
  const { port } = await serve(t, echo());
  const res = await request(port, { body: Buffer.from([0x22, 0xc3, 0x28, 0x22]), headers: json });
  t.is(res.status, 400);
  t.deepEqual(res.json(), { error: 'request entity could not be decoded' });
});

test('400 when an array arrives where an object is expected', async (t) => {
  const { port } = await serve(t, echo({ expect: 'object' }));
  const res = await request(port, { body: '[{"name":"Fred"}]', headers: json });
  t.is(res.status, 400);
  t.deepEqual(res.json(), { error: 'request entity was unexpected type' });
});

test('400 when a number arrives where a string is expected', async (t) => {
  const { port } = await serve(t, echo({ expect: 'string' }));
  const res = await request(port, { body: '42', headers: json });
  t.is(res.status, 400);
  t.deepEqual(res.json(), { error: 'request entity was unexpected type' });
});

test('expect array accepts a JSON list', async (t) => {
  const { port } = await serve(t, echo({ expect: 'array' }));
  const res = await request(port, { body: '[1,2]', headers: json });
  t.deepEqual(res.json(), { value: [1, 2] });
});

test('a latin1 text body is decoded with its charset', async (t) => {
  const { port } = await serve(t, echo({ expect: 'string' }));
  const res = await request(port, {
    body: iconv.encode('Café Zürich ÿ', 'latin1'),
    headers: { 'content-type': 'text/plain; charset=iso-8859-1' },
  });
  t.is(res.status, 200);
  t.deepEqual(res.json(), { value: 'Café Zürich ÿ' });
});

test('a latin1 JSON body is decoded with its charset', async (t) => {
  const { port } = await serve(t, echo());
  const res = await request(port, {
    body: iconv.encode('{"name":"Brontë"}', 'latin1'),
    headers: { 'content-type': 'application/json; charset=latin1' },
  });
  t.deepEqual(res.json(), { value: { name: 'Brontë' } });
});

test('text/* without a charset is decoded as utf-8 (we differ from Aqueduct latin1)', async (t) => {
  const { port } = await serve(t, echo({ expect: 'string' }));
  const res = await request(port, { body: Buffer.from('naïve ☃', 'utf8'), headers: { 'content-type': 'text/plain' } });
  t.deepEqual(res.json(), { value: 'naïve ☃' });
});

test('415 for an unknown charset', async (t) => {
  const { port } = await serve(t, echo());
  const res = await request(port, { body: '{}', headers: { 'content-type': 'application/json; charset=klingon' } });
  t.is(res.status, 415);
  t.deepEqual(res.json(), { error: "invalid charset 'klingon'" });
});

test('415 for a content type without a codec', async (t) => {
  const { port } = await serve(t, echo());
  const res = await request(port, { body: '<a/>', headers: { 'content-type': 'application/xml' } });
  t.is(res.status, 415);
  t.deepEqual(res.json(), { error: "unsupported content type 'application/xml'" });
});

test('415 for a body without Content-Type on a decoding route', async (t) => {
  const { port } = await serve(t, echo());
  const res = await request(port, { body: '{}' });
  t.is(res.status, 415);
  t.deepEqual(res.json(), { error: 'missing content type' });
});

test('415 when the route accepts only some types (contentTypes)', async (t) => {
  const { port } = await serve(t, echo({ contentTypes: ['application/x-www-form-urlencoded'] }));
  const res = await request(port, { body: '{}', headers: json });
  t.is(res.status, 415);
  const ok = await request(port, { body: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  t.deepEqual(ok.json(), { value: { a: '1' } });
});

test('400 missing required body for an empty request', async (t) => {
  const { port } = await serve(t, echo());
  const none = await request(port, { method: 'POST', headers: json });
  t.is(none.status, 400);
  t.deepEqual(none.json(), { error: 'missing required body' });
  const zero = await request(port, { body: '', headers: json });
  t.deepEqual(zero.json(), { error: 'missing required body' });
  const emptyChunked = await request(port, { chunks: [], headers: json });
  t.deepEqual(emptyChunked.json(), { error: 'missing required body' });
});

test('an optional body may be absent', async (t) => {
  const { port } = await serve(t, echo({ required: false }));
  const res = await request(port, { method: 'POST', headers: json });
  t.is(res.status, 200);
  t.deepEqual(res.json(), { value: null });
});

test('expect bytes returns the raw bytes of any type', async (t) => {
  const { port } = await serve(t, echo({ expect: 'bytes' }));
  const res = await request(port, { body: Buffer.from([0, 255, 7]), headers: { 'content-type': 'image/png' } });
  t.deepEqual(res.json(), { value: [0, 255, 7] });
});

test('a second readBody call decodes the same bytes again', async (t) => {
  const { port } = await serve(t, (app) => {
    app.use(async (ctx) => {
      const first = await readBody(ctx);
      const second = await readBody(ctx, { expect: 'object', ignore: ['b'] });
      ctx.body = { first, second };
    });
  });
  const res = await request(port, { body: '{"a":1,"b":2}', headers: json });
  t.deepEqual(res.json(), { first: { a: 1, b: 2 }, second: { a: 1 } });
});

test('the body is read by the kit even on a chunked request with a codec', async (t) => {
  const { port } = await serve(t, echo());
  const res = await request(port, { chunks: ['{"na', 'me":"Bo', 'b"}'], headers: json });
  t.deepEqual(res.json(), { value: { name: 'Bob' } });
});
