import http from 'node:http';
import test from 'ava';
import { readBody } from '@heroes/http-kit';
import { exchange, jsonBody } from '@heroes/test-kit';
import { request, serve } from '../_helpers/serve.ts';

/** configureServer's 100-continue check against the kit's body limit. */
const LIMIT = 1000;

function echoLength(app: import('koa')) {
  app.use(async (ctx) => {
    const body = await readBody(ctx, { expect: 'bytes' });
    ctx.body = { length: (body as Buffer).length };
  });
}

test('Expect: 100-continue with an announced length over the limit → 413 instead of 100 Continue, body never read', async (t) => {
  const { port, logs } = await serve(t, echoLength, { maxBodyBytes: LIMIT }, {});
  const res = await exchange(port, `POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: ${11 * 1024 * 1024}\r\n\r\n`, { waitMs: 4_000 });
  t.notRegex(res.text, /100 Continue/);
  t.regex(res.text, /^HTTP\/1\.1 413 /);
  t.regex(res.text, /\r\nconnection: close\r\n/i);
  t.deepEqual(jsonBody(res.text), { error: 'entity length exceeds maximum' });
  t.true(res.closed);
  t.true(logs.some((line) => line['msg'] === 'request' && line['status'] === 413));
});

test('Expect: 100-continue within the limit still gets 100 Continue, then the answer', async (t) => {
  const { port } = await serve(t, echoLength, { maxBodyBytes: LIMIT }, {});
  const result = await new Promise<{ continued: boolean; status: number; body: string }>((resolve, reject) => {
    let continued = false;
    const req = http.request({
      host: '127.0.0.1', port, method: 'POST', path: '/', agent: false,
      headers: { expect: '100-continue', 'content-length': LIMIT },
    }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => resolve({ continued, status: res.statusCode ?? 0, body: Buffer.concat(parts).toString() }));
    });
    req.on('continue', () => {
      continued = true;
      req.end(Buffer.alloc(LIMIT));
    });
    req.on('error', reject);
  });
  t.deepEqual(result, { continued: true, status: 200, body: JSON.stringify({ length: LIMIT }) });
});

test('Expect: 100-continue with a chunked body gets 100 Continue; the body is counted while streaming', async (t) => {
  const { port } = await serve(t, echoLength, { maxBodyBytes: LIMIT }, {});
  const res = await exchange(port, 'POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n', { waitMs: 5_000, until: /\r\n\r\n/ });
  t.regex(res.text, /^HTTP\/1\.1 100 Continue/);
  const chunked = await request(port, { chunks: [Buffer.alloc(LIMIT), Buffer.alloc(1)], headers: { expect: '100-continue' } });
  t.is(chunked.status, 413);
});
