/**
 * Answers given before the body was read (413 on a Content-Length, a route's refusal) reach clients that do not
 * wait for `100 Continue` (fetch, from another process): the rest is read and discarded, never reset.
 */
import net from 'node:net';
import test from 'ava';
import { readBody } from '@heroes/http-kit';
import { uploadFromAnotherProcess } from '@heroes/test-kit';
import { serve } from '../_helpers/serve.ts';

const MB = 1024 * 1024;

test('5 of 5 uploads of 11 MB over the 10 MiB limit read their 413, none is reset', async (t) => {
  const { url } = await serve(t, (app) => {
    app.use(async (ctx) => {
      ctx.body = { value: await readBody(ctx) };
    });
  }, {}, {});
  const outcomes = await uploadFromAnotherProcess(url, { bytes: 11 * MB, times: 5, contentType: 'application/json' });
  t.deepEqual(outcomes, Array(5).fill({ status: 413, body: '{"error":"entity length exceeds maximum"}', retryAfter: null }));
});

test('a route that refuses before reading (a 401) and closes the connection is read by the client too', async (t) => {
  const { url } = await serve(t, (app) => {
    app.use((ctx) => {
      ctx.set('Connection', 'close');
      ctx.status = 401;
      ctx.body = { error: 'invalid_token' };
    });
  }, {}, {});
  const outcomes = await uploadFromAnotherProcess(url, { bytes: 9 * MB, times: 5, contentType: 'application/json' });
  t.deepEqual(outcomes, Array(5).fill({ status: 401, body: '{"error":"invalid_token"}', retryAfter: null }));
});

/**
 * A client that reads the early answer, then goes on uploading (as undici
 * does with a Buffer body): it must be able to finish without a reset.
 */
function uploadAfterAnswer(port: number, declared: number): Promise<{ answer: string; resetWhileUploading: string | undefined }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let resetWhileUploading: string | undefined;
    let uploading = false;
    socket.on('error', (err: Error & { code?: string }) => {
      if (uploading) resetWhileUploading ??= err.code ?? err.message;
    });
    socket.on('close', () => resolve({ answer, resetWhileUploading }));
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      if (uploading || !answer.includes('\r\n\r\n')) return;
      // The whole answer is in: upload the rest, as a client busy writing would.
      uploading = true;
      const rest = Buffer.alloc(declared - 64 * 1024, 0x61);
      socket.write(rest, () => socket.end());
    });
    socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`);
    socket.write(Buffer.alloc(64 * 1024, 0x61));
  });
}

test('after an early 413 with Connection: close the server reads the rest of the upload: no reset under the client', async (t) => {
  const { port } = await serve(t, (app) => {
    app.use(async (ctx) => {
      ctx.body = { value: await readBody(ctx) };
    });
  }, { maxBodyBytes: MB }, {});
  const { answer, resetWhileUploading } = await uploadAfterAnswer(port, 4 * MB);
  t.regex(answer, /^HTTP\/1\.1 413 /);
  t.regex(answer, /\r\nConnection: close\r\n/i);
  t.is(resetWhileUploading, undefined);
});
