import test from 'ava';
import { CodecRegistry, createDefaultRegistry, readBody, type Codec } from '../../src/index.ts';
import { request, serve } from '../_helpers/serve.ts';

class CsvCodec implements Codec {
  decode(input: string | Buffer): unknown {
    return String(input).trim().split('\n').map((line) => line.split(','));
  }
  encode(value: unknown): string {
    return (value as string[][]).map((row) => row.join(',')).join('\n');
  }
}

class UpperCodec implements Codec {
  decode(input: string | Buffer): unknown {
    return `upper:${String(input).toUpperCase()}`;
  }
  encode(value: unknown): string {
    return String(value).toUpperCase();
  }
}

test('lookup: exact type first, then type/*, charset and case ignored', (t) => {
  const registry = createDefaultRegistry();
  const json = registry.lookup('application/json');
  t.truthy(json?.codec);
  t.is(registry.lookup('Application/JSON; charset=latin1'), json);
  const wildcard = registry.lookup('text/*');
  t.is(registry.lookup('text/html; charset=utf-8'), wildcard);
  t.is(registry.lookup('text/csv'), wildcard);
  t.not(registry.lookup('text/event-stream'), wildcard);
  t.is(registry.lookup('image/png'), undefined);
  t.is(registry.lookup('application/octet-stream'), undefined);
  t.is(registry.lookup('nonsense'), undefined);
});

test('lookup: a +json structured suffix falls back to application/json', (t) => {
  const registry = createDefaultRegistry();
  t.is(registry.lookup('application/jwk-set+json'), registry.lookup('application/json'));
});

test('an exact entry wins over the wildcard entry of its primary type', (t) => {
  const registry = createDefaultRegistry().register('text/csv', { codec: new CsvCodec(), compress: false, defaultCharset: 'utf-8' });
  t.true(registry.lookup('text/csv')?.codec instanceof CsvCodec);
  t.false(registry.lookup('text/csv')?.compress);
  t.true(registry.lookup('text/plain')?.compress);
});

test('register rejects an invalid media type', (t) => {
  t.throws(() => new CodecRegistry().register('not a type', {}), { instanceOf: TypeError });
});

test('setAllowsCompression keeps the codec and flips gzip', (t) => {
  const registry = createDefaultRegistry().setAllowsCompression('application/json', false);
  t.false(registry.lookup('application/json')?.compress);
  t.truthy(registry.lookup('application/json')?.codec);
  t.is(registry.lookup('application/json')?.defaultCharset, 'utf-8');
});

test('a wildcard codec decodes a request whose subtype has no own entry', async (t) => {
  const registry = createDefaultRegistry().register('application/*', { codec: new UpperCodec(), defaultCharset: 'utf-8' });
  const { port } = await serve(t, (app) => {
    app.use(async (ctx) => {
      ctx.body = { value: await readBody(ctx) };
    });
  }, { registry });
  const res = await request(port, { body: 'hello', headers: { 'content-type': 'application/x-anything' } });
  t.deepEqual(res.json(), { value: 'upper:HELLO' });
  const json = await request(port, { body: '{"a":1}', headers: { 'content-type': 'application/json' } });
  t.deepEqual(json.json(), { value: { a: 1 } }, 'the exact JSON entry still wins');
});

test('an app-registered codec is used to decode requests and encode responses', async (t) => {
  const registry = createDefaultRegistry().register('text/csv', { codec: new CsvCodec(), compress: true, defaultCharset: 'utf-8' });
  const { port } = await serve(t, (app) => {
    app.use(async (ctx) => {
      const rows = (await readBody(ctx, { expect: 'array' })) as string[][];
      ctx.body = rows.reverse();
      ctx.type = 'text/csv';
    });
  }, { registry });
  const res = await request(port, { body: 'a,b\nc,d\n', headers: { 'content-type': 'text/csv' } });
  t.is(res.status, 200);
  t.is(res.text, 'c,d\na,b');
  t.is(res.headers['content-type'], 'text/csv; charset=utf-8');
});
