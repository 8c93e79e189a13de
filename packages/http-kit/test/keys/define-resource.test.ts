import test from 'ava';
import { defineResource, readBody } from '../../src/index.ts';
import { request, serve } from '../_helpers/serve.ts';

const User = defineResource({ inputOnly: ['password'], outputOmitted: ['hashedPassword', 'salt'] });

test('toMap drops input-only and output-omitted fields from an object and a list', (t) => {
  const row = { id: 1, username: 'bob', password: 'p', hashedPassword: 'h', salt: 's' };
  t.deepEqual(User.toMap(row), { id: 1, username: 'bob' });
  t.deepEqual(User.toMap([row, { ...row, id: 2 }]), [{ id: 1, username: 'bob' }, { id: 2, username: 'bob' }]);
});

test('toMap can include a chosen output-omitted field and turns BigInt into numbers', (t) => {
  const row = { id: 7n, big: 2n ** 60n, salt: 's', hashedPassword: 'h' };
  t.deepEqual(User.toMap(row, { include: ['salt'] }), { id: 7, big: '1152921504606846976', salt: 's' });
});

test('fromRequest rejects output-omitted keys and applies filters', (t) => {
  t.deepEqual(User.fromRequest({ username: 'a', password: 'b', id: 3 }, { ignore: ['id'] }), { username: 'a', password: 'b' });
  const error = t.throws(() => User.fromRequest({ username: 'a', salt: 'x' }));
  t.deepEqual((error as { details?: unknown }).details, { reasons: ["invalid input key 'salt'"] });
});

test('a handler body built with toMap never writes password, hashedPassword or salt', async (t) => {
  const { port } = await serve(t, (app) => {
    app.use(async (ctx) => {
      const input = User.fromRequest<{ username: string; password: string }>(await readBody(ctx), { require: ['username', 'password'] });
      ctx.body = User.toMap({ id: 1, ...input, hashedPassword: 'hash', salt: 'salt' });
    });
  });
  const res = await request(port, { body: '{"username":"bob","password":"secret"}', headers: { 'content-type': 'application/json' } });
  t.is(res.status, 200);
  t.deepEqual(res.json(), { id: 1, username: 'bob' });
  t.false(res.text.includes('secret'));
  const bad = await request(port, { body: '{"username":"bob","hashedPassword":"x"}', headers: { 'content-type': 'application/json' } });
  t.is(bad.status, 400);
});
