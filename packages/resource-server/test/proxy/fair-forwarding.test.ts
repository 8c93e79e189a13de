/**
 * Fair forwarding (docs/http.md): a forwarded body is read whole before an upstream connection is taken (408 if late),
 * one address holds at most AUTH_PROXY_ADDRESS_MAX forwarded requests (429 beyond), and a refusal the authorization
 * server asks the edge to hold holds neither a connection nor a slot. Against a one-connection upstream of the test's.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { waitFor } from '@heroes/test-kit';
import { startInProcess, type InProcessServer } from '../_helpers/in-process.ts';

interface Upstream {
  url: string;
  /** Requests whose answer the test releases by hand (path /auth/wait). */
  waiting: http.ServerResponse[];
  /** Requests received, by path. */
  seen: string[];
  /** Headers of the last request. */
  lastHeaders: http.IncomingHttpHeaders;
  close(): Promise<void>;
}

async function startUpstream(): Promise<Upstream> {
  const state: Upstream = { url: '', waiting: [], seen: [], lastHeaders: {}, close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      state.seen.push(req.url ?? '');
      state.lastHeaders = req.headers;
      if (req.url === '/auth/wait') {
        state.waiting.push(res);
        return;
      }
      if (req.url === '/auth/refused' && req.headers['x-edge-holds-refusals'] === '1') {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '60', 'x-edge-hold-ms': '60000' });
        res.end('{"error":"temporarily_unavailable"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ url: req.url, body: Buffer.concat(chunks).toString('utf8') }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return state;
}

let upstream: Upstream;
let rs: InProcessServer;

test.before(async () => {
  upstream = await startUpstream();
  rs = await startInProcess(upstream.url, { authProxyMaxSockets: 1, authProxyAddressMax: 3, authBodyTimeoutMs: 1_000, trustProxy: true });
});
test.after.always(async () => {
  for (const res of upstream?.waiting ?? []) res.end();
  await rs?.close();
  await upstream?.close();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

function get(path: string, address: string, method = 'GET', body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'x-forwarded-for': address };
    if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const req = http.request(`${rs.url}${path}`, { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Opens a socket that sends a POST's headers and part of its body, then stays silent; resolves with what it is answered. */
function stalledUpload(address: string): { answered: Promise<string>; socket: net.Socket } {
  const url = new URL(rs.url);
  const socket = net.connect(Number(url.port), url.hostname);
  socket.write(`POST /auth/token HTTP/1.1\r\nHost: ${url.host}\r\nX-Forwarded-For: ${address}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ngrant_type=password`);
  const answered = new Promise<string>((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => { text += chunk.toString('utf8'); });
    socket.on('close', () => resolve(text));
    socket.on('error', () => resolve(text));
  });
  return { answered, socket };
}

test.serial('a stalled upload holds no upstream connection: others pass meanwhile, and it gets 408 JSON after the body time limit', async (t) => {
  const stalled = stalledUpload('203.0.113.1');
  await waitFor(() => rs.server.config !== undefined);
  // The pool has one connection: were it taken by the stalled upload, this would wait for the 408.
  const other = await get('/.well-known/oauth-authorization-server', '198.51.100.1');
  t.is(other.status, 200);
  t.false(upstream.seen.includes('/auth/token'), 'nothing forwarded yet');
  const answer = await stalled.answered;
  t.regex(answer, /^HTTP\/1\.1 408 /);
  t.regex(answer, /\{"error":"request body not received in time"\}/);
  t.false(upstream.seen.includes('/auth/token'), 'never forwarded');
});

test.serial('a body that arrives in time is forwarded whole', async (t) => {
  const answer = await get('/auth/token', '203.0.113.2', 'POST', 'grant_type=password&username=bob');
  t.is(answer.status, 200);
  t.deepEqual(JSON.parse(answer.text), { url: '/auth/token', body: 'grant_type=password&username=bob' });
  t.is(upstream.lastHeaders['x-edge-holds-refusals'], '1', 'the edge says it holds delayed refusals');
});

test.serial('a client address with AUTH_PROXY_ADDRESS_MAX forwarded requests in flight gets 429 with Retry-After; others do not', async (t) => {
  const stalled = [stalledUpload('203.0.113.3'), stalledUpload('203.0.113.3'), stalledUpload('203.0.113.3')];
  await waitFor(async () => (await get('/.well-known/x', '203.0.113.3')).status === 429);
  const refused = await get('/.well-known/x', '203.0.113.3');
  t.is(refused.status, 429);
  t.is(refused.headers['retry-after'], '1');
  t.deepEqual(JSON.parse(refused.text), { error: 'too many concurrent requests from this address' });
  t.is((await get('/.well-known/x', '203.0.113.4')).status, 200, 'another address is served');
  for (const { socket } of stalled) socket.destroy();
  await waitFor(async () => (await get('/.well-known/x', '203.0.113.3')).status === 200);
  t.pass();
});

test.serial('a refusal held at the edge frees the upstream connection and the address slot at once; the hold header is not relayed', async (t) => {
  const held = Array.from({ length: 3 }, () => {
    const req = http.request(`${rs.url}/auth/refused`, { method: 'POST', headers: { 'x-forwarded-for': '203.0.113.5', 'content-length': '0' }, agent: false });
    req.on('error', () => {});
    req.end();
    return { req };
  });
  await waitFor(() => upstream.seen.filter((path) => path === '/auth/refused').length === 3);
  // One pooled connection, three refusals held for a minute: both go on at once.
  t.is((await get('/.well-known/y', '198.51.100.2')).status, 200);
  t.is((await get('/.well-known/z', '203.0.113.5')).status, 200, 'the held refusals hold no slot of their address');
  for (const { req } of held) req.destroy();
});

test.serial('a held refusal reaches the client after its hold, without the hold header', async (t) => {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '5', 'x-edge-hold-ms': '300' });
      res.end('{"error":"temporarily_unavailable"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const edge = await startInProcess(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, {}, rs.database);
  try {
    const started = performance.now();
    const res = await fetch(`${edge.url}/auth/token`, { method: 'POST', body: 'grant_type=password' });
    const text = await res.text();
    t.is(res.status, 429);
    t.is(text, '{"error":"temporarily_unavailable"}');
    t.is(res.headers.get('retry-after'), '5');
    t.is(res.headers.get('x-edge-hold-ms'), null);
    t.true(performance.now() - started >= 290, 'held');
  } finally {
    await edge.close();
    server.closeAllConnections();
    server.close();
  }
});
