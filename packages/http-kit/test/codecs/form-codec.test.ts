import test from 'ava';
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
