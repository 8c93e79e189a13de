import http from 'node:http';
import net from 'node:net';
import { Writable } from 'node:stream';
import test from 'ava';
import { pino } from 'pino';
import { waitFor } from '@heroes/test-kit';
import { startInProcess } from '../_helpers/in-process.ts';

const MARKER = 'code=SECRET-AUTH-CODE-7f3a';

/** A fake authorization server that answers every request with `head` (raw bytes) and no body. */
async function rawUpstream(head: string): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('data', () => socket.end(head));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}

const redirect = (locationBytes: number) =>
  `HTTP/1.1 302 Found\r\nLocation: https://client.example/cb?state=${'s'.repeat(locationBytes)}&${MARKER}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`;

/** GET through node:http with a large header limit, so the client is never the bottleneck. */
function get(url: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    http.get(url, { maxHeaderSize: 256 * 1024, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    }).on('error', reject);
  });
}

function capturingLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), lines };
}

test('an upstream response that cannot be parsed → 502 bad gateway, and the log holds no upstream bytes', async (t) => {
  const upstream = await rawUpstream(redirect(100 * 1024));
  const { logger, lines } = capturingLogger();
  const rs = await startInProcess(upstream.url, { logger });
  try {
    const res = await get(`${rs.url}/auth/code`);
    t.is(res.status, 502);
    t.deepEqual(JSON.parse(res.text), { error: 'bad gateway' });
    const warning = await waitFor(() => lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line['level'] === 40));
    const log = lines.join('');
    t.like(warning, { path: '/auth/code', err: { code: 'HPE_HEADER_OVERFLOW' } });
    t.false(log.includes(MARKER), 'the authorization code is not logged');
    t.false(log.includes('rawPacket'));
  } finally {
    await rs.close();
    await upstream.close();
  }
});

test('a Location header longer than Node\'s 16 KB default still relays', async (t) => {
  const upstream = await rawUpstream(redirect(30 * 1024));
  const rs = await startInProcess(upstream.url);
  try {
    const res = await get(`${rs.url}/auth/code`);
    t.is(res.status, 302);
    t.true(res.headers.location?.endsWith(MARKER));
  } finally {
    await rs.close();
    await upstream.close();
  }
});
