import test from 'ava';
import type Koa from 'koa';
import { BadRequestError, filterKeys, readBody, type ReadBodyOptions } from '../../src/index.ts';
import { request, serve } from '../_helpers/serve.ts';

const json = { 'content-type': 'application/json' };

function echo(options: ReadBodyOptions) {
  return (app: Koa) => {
    app.use(async (ctx) => {
      ctx.body = { value: await readBody(ctx, options) };
    });
  };
}

test('ignore drops keys from an object', async (t) => {
  const { port } = await serve(t, echo({ expect: 'object', ignore: ['id'] }));
  const res = await request(port, { body: '{"id":5,"name":"Fred"}', headers: json });
  t.deepEqual(res.json(), { value: { name: 'Fred' } });
});

test('accept keeps only listed keys', async (t) => {
  const { port } = await serve(t, echo({ accept: ['name'] }));
  const res = await request(port, { body: '{"id":5,"name":"Fred","x":1}', headers: json });
  t.deepEqual(res.json(), { value: { name: 'Fred' } });
});

test('reject → 400 naming the first rejected key', async (t) => {
  const { port } = await serve(t, echo({ reject: ['id', 'admin'] }));
  const res = await request(port, { body: '{"name":"Fred","admin":true,"id":1}', headers: json });
  t.is(res.status, 400);
  t.deepEqual(res.json(), { error: 'entity validation failed', reasons: ["invalid input key 'admin'"] });
});

test('require → 400 naming every missing key in one quoted list', async (t) => {
  const { port } = await serve(t, echo({ require: ['username', 'password', 'name'] }));
  const res = await request(port, { body: '{"name":"Fred"}', headers: json });
  t.is(res.status, 400);
  t.deepEqual(res.json(), { error: 'entity validation failed', reasons: ["missing required input key(s): 'username, password'"] });
});

test('an ignored key still counts as supplied for require', async (t) => {
  const { port } = await serve(t, echo({ ignore: ['id'], require: ['id'] }));
  const res = await request(port, { body: '{"id":1,"name":"x"}', headers: json });
  t.deepEqual(res.json(), { value: { name: 'x' } });
});

test('filters apply to each element of a list of objects', async (t) => {
  const { port } = await serve(t, echo({ expect: 'array', ignore: ['id'], require: ['name'] }));
  const ok = await request(port, { body: '[{"id":1,"name":"A"},{"name":"B"}]', headers: json });
  t.deepEqual(ok.json(), { value: [{ name: 'A' }, { name: 'B' }] });
  const missing = await request(port, { body: '[{"name":"A"},{"id":2}]', headers: json });
  t.is(missing.status, 400);
  t.deepEqual(missing.json(), { error: 'entity validation failed', reasons: ["missing required input key(s): 'name'"] });
});

test('reject applies to each element of a list', async (t) => {
  const { port } = await serve(t, echo({ reject: ['id'] }));
  const res = await request(port, { body: '[{"name":"A"},{"id":2}]', headers: json });
  t.deepEqual(res.json(), { error: 'entity validation failed', reasons: ["invalid input key 'id'"] });
});

test('filters on a body that is not an object → 400 unexpected type', async (t) => {
  const { port } = await serve(t, echo({ ignore: ['id'] }));
  const res = await request(port, { body: '"just a string"', headers: json });
  t.deepEqual(res.json(), { error: 'request entity was unexpected type' });
  const list = await request(port, { body: '[1,2]', headers: json });
  t.deepEqual(list.json(), { error: 'request entity was unexpected type' });
});

test('filterKeys returns a copy and throws BadRequestError with reasons', (t) => {
  const input = { a: 1, b: 2 };
  const out = filterKeys(input, { ignore: ['b'] });
  t.deepEqual(out, { a: 1 });
  t.deepEqual(input, { a: 1, b: 2 });
  const error = t.throws(() => filterKeys(input, { reject: ['b'] }), { instanceOf: BadRequestError });
  t.is(error?.status, 400);
  t.deepEqual(error?.details, { reasons: ["invalid input key 'b'"] });
});
