import test from 'ava';
import iconv from 'iconv-lite';
import type Koa from 'koa';
import { isWellFormedText, readBody } from '../../src/index.ts';
import { request, serve } from '../_helpers/serve.ts';

function echo(app: Koa) {
  app.use(async (ctx) => {
    ctx.body = { value: await readBody(ctx) };
  });
}

const json = { 'content-type': 'application/json' };
const UNDECODABLE = { error: 'request entity could not be decoded' };

for (const [title, body] of [
  ['a lone high surrogate in a value', '{"username":"lone\\ud800","password":"pw"}'],
  ['a lone low surrogate in a value', '{"name":"\\udc00x"}'],
  ['a lone surrogate in a key', '{"na\\ud800me":"x"}'],
  ['a lone surrogate deep in a list', '{"a":[1,{"b":["ok","\\ud83d"]}]}'],
  ['a bare string with a lone surrogate', '"\\ud800"'],
] as const) {
  test(`400 for ${title} (valid JSON, not well-formed Unicode)`, async (t) => {
    const { port } = await serve(t, echo);
    const res = await request(port, { body, headers: json });
    t.is(res.status, 400);
    t.deepEqual(res.json(), UNDECODABLE);
  });
}

test('escaped surrogate pairs and NUL are well-formed and pass (NUL is the app\'s rule)', async (t) => {
  const { port } = await serve(t, echo);
  const res = await request(port, { body: '{"name":"\\ud83d\\ude00 a\\u0000b"}', headers: json });
  t.is(res.status, 200);
  t.deepEqual(res.json(), { value: { name: '\u{1F600} a\u0000b' } });
});

test('deeply nested JSON is walked without overflowing the stack', async (t) => {
  const { port } = await serve(t, echo);
  const depth = 100_000;
  const body = `${'['.repeat(depth)}"\\ud800"${']'.repeat(depth)}`;
  const res = await request(port, { body, headers: json });
  t.is(res.status, 400);
  t.deepEqual(res.json(), UNDECODABLE);
});

test('400 for a form body in UTF-16 that carries a lone surrogate; a valid one passes', async (t) => {
  const { port } = await serve(t, echo);
  const form = { 'content-type': 'application/x-www-form-urlencoded; charset=utf-16le' };
  const bad = await request(port, { body: iconv.encode('username=lone\ud800&password=pw', 'utf-16le'), headers: form });
  t.is(bad.status, 400);
  t.deepEqual(bad.json(), UNDECODABLE);
  const good = await request(port, { body: iconv.encode('username=b\u00f6b&password=pw', 'utf-16le'), headers: form });
  t.is(good.status, 200);
  t.deepEqual(good.json(), { value: { username: 'b\u00f6b', password: 'pw' } });
});

test('400 for a UTF-8 form body whose percent escapes encode a surrogate', async (t) => {
  const { port } = await serve(t, echo);
  const res = await request(port, {
    body: 'username=lone%ED%A0%80&password=pw',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  t.is(res.status, 400);
  t.deepEqual(res.json(), UNDECODABLE);
});

test('400 for a text body in UTF-16 with a lone surrogate', async (t) => {
  const { port } = await serve(t, echo);
  const res = await request(port, {
    body: iconv.encode('x\udfffy', 'utf-16le'),
    headers: { 'content-type': 'text/plain; charset=utf-16le' },
  });
  t.is(res.status, 400);
  t.deepEqual(res.json(), UNDECODABLE);
});

test('isWellFormedText accepts surrogate pairs only', (t) => {
  t.true(isWellFormedText('😀'));
  t.true(isWellFormedText('a\u0000b'));
  t.false(isWellFormedText('\uD83D'));
  t.false(isWellFormedText('\uDE00\uD83D'));
});
