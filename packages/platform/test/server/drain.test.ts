import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { trackRequests } from '../../src/index.ts';
import { waitFor } from '@heroes/test-kit';

/** Tracks `server`'s requests and puts it on 127.0.0.1:0; its connections are cut at teardown. */
async function trackAndListen(t: ExecutionContext, server: http.Server) {
  const drainer = trackRequests(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.closeAllConnections());
  return { drainer, port: (server.address() as AddressInfo).port };
}

/** A raw TCP connection to `port`; everything it has received so far in `received.text`. */
function rawConnection(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  const received = { text: '' };
  socket.on('data', (chunk: Buffer) => (received.text += chunk.toString('latin1')));
  return { socket, received };
}

test('drain lets in-flight requests finish with Connection: close, refuses new connections, then resolves', async (t) => {
  // Requests are answered only once the drain has begun.
  const waiting: http.ServerResponse[] = [];
  const server = http.createServer((_req, res) => {
    waiting.push(res);
  });
  const { drainer, port } = await trackAndListen(t, server);
  const agent = new http.Agent({ keepAlive: true });
  const get = () =>
    new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
      http.get({ port, host: '127.0.0.1', agent }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body, connection: res.headers.connection }));
      }).on('error', reject);
    });
  t.teardown(() => agent.destroy());
  const inFlight = Array.from({ length: 5 }, get);
  await waitFor(() => drainer.inFlight() === 5);
  t.is(drainer.inFlight(), 5);
  const drained = drainer.drain(5_000);
  for (const res of waiting) res.end('done');
  const answers = await Promise.all(inFlight);
  for (const answer of answers) t.deepEqual(answer, { status: 200, body: 'done', connection: 'close' });
  t.deepEqual(await drained, { cut: 0 });
  await t.throwsAsync(get(), { code: 'ECONNREFUSED' });
  agent.destroy();
});

test('while a request runs, the drain keeps accepting: a request on a new connection (a proxy that has not noticed yet) is served with Connection: close', async (t) => {
  const waiting: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    if (req.url === '/slow') waiting.push(res);
    else res.end('done');
  });
  const { drainer, port } = await trackAndListen(t, server);
  const slow = rawConnection(port);
  slow.socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
  await waitFor(() => drainer.inFlight() === 1);
  const drained = drainer.drain(10_000);
  const late = rawConnection(port);
  const lateClosed = new Promise<string | undefined>((resolve) => {
    let error: string | undefined;
    late.socket.on('error', (err: Error & { code?: string }) => (error = err.code));
    late.socket.on('close', () => resolve(error));
  });
  late.socket.write('GET /late HTTP/1.1\r\nHost: x\r\n\r\n');
  t.is(await lateClosed, undefined);
  t.regex(late.received.text, /^HTTP\/1\.1 200 /);
  t.regex(late.received.text, /\r\nConnection: close\r\n/i);
  t.true(late.received.text.endsWith('done'));
  waiting[0]!.end('slow done');
  t.deepEqual(await drained, { cut: 0 });
  await t.throwsAsync(new Promise((resolve, reject) => net.connect(port, '127.0.0.1').on('connect', resolve).on('error', reject)), { code: 'ECONNREFUSED' });
});

test('drain cuts what is still running when the time is up', async (t) => {
  const server = http.createServer(() => {
    // never answers
  });
  const { drainer, port } = await trackAndListen(t, server);
  const failed = new Promise((resolve) => http.get({ port, host: '127.0.0.1' }).on('error', resolve));
  await waitFor(() => drainer.inFlight() === 1);
  // It resolves at all: the request never ends, so only the budget can end the drain.
  t.deepEqual(await drainer.drain(200), { cut: 1 });
  t.truthy(await failed);
});

test('a request sent on an idle keep-alive connection as the drain begins is answered (Connection: close), not reset', async (t) => {
  const server = http.createServer((_req, res) => res.end('done'));
  const { drainer, port } = await trackAndListen(t, server);
  const { socket, received } = rawConnection(port);
  const closed = new Promise<string | undefined>((resolve) => {
    let error: string | undefined;
    socket.on('error', (err: Error & { code?: string }) => (error = err.code));
    socket.on('close', () => resolve(error));
  });
  const request = 'GET / HTTP/1.1\r\nHost: x\r\n\r\n';
  socket.write(request);
  await waitFor(() => received.text.endsWith('done'));
  t.regex(received.text, /^HTTP\/1\.1 200 /);
  // The connection is idle; the next request is on its way as the drain starts.
  received.text = '';
  socket.write(request);
  const drained = drainer.drain(5_000);
  t.is(await closed, undefined);
  t.regex(received.text, /^HTTP\/1\.1 200 /);
  t.regex(received.text, /\r\nConnection: close\r\n/i);
  t.true(received.text.endsWith('done'));
  t.deepEqual(await drained, { cut: 0 });
});

test('a connection left idle does not hold the drain: it is closed after the grace, long before keep-alive or deadline', async (t) => {
  const server = http.createServer((_req, res) => res.end('done'));
  server.keepAliveTimeout = 120_000;
  const { drainer, port } = await trackAndListen(t, server);
  const { socket, received } = rawConnection(port);
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
  await waitFor(() => received.text.endsWith('done'));
  // Neither the keep-alive timeout (2 min) nor the drain's deadline (2 min) ends this drain.
  t.deepEqual(await drainer.drain(120_000), { cut: 0 });
  await closed;
  t.pass();
});
