import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { trackRequests } from '../../src/index.ts';
import { waitFor } from '../../src/testing/index.ts';

test('drain lets in-flight requests finish with Connection: close, refuses new connections, then resolves', async (t) => {
  // Requests are answered only once the drain has begun.
  const waiting: http.ServerResponse[] = [];
  const server = http.createServer((_req, res) => {
    waiting.push(res);
  });
  const drainer = trackRequests(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const agent = new http.Agent({ keepAlive: true });
  const get = () =>
    new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
      http.get({ port, host: '127.0.0.1', agent }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body, connection: res.headers.connection }));
      }).on('error', reject);
    });
  t.teardown(() => {
    server.closeAllConnections();
    agent.destroy();
  });
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

test('drain cuts what is still running when the time is up', async (t) => {
  const server = http.createServer(() => {
    // never answers
  });
  const drainer = trackRequests(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  t.teardown(() => server.closeAllConnections());
  const failed = new Promise((resolve) => http.get({ port, host: '127.0.0.1' }).on('error', resolve));
  await waitFor(() => drainer.inFlight() === 1);
  // It resolves at all: the request never ends, so only the budget can end the drain.
  t.deepEqual(await drainer.drain(200), { cut: 1 });
  t.truthy(await failed);
});
