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

/** An upstream that refuses every login as a throttled one would, counting the requests it gets. */
async function startRefusingUpstream(refusedMs: string | undefined): Promise<{ url: string; seen: string[]; close(): void }> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push(Buffer.concat(chunks).toString('utf8'));
      const body = JSON.stringify({ error: 'temporarily_unavailable', error_description: 'too many failed logins; retry after 60 s' });
      res.writeHead(429, {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
        'retry-after': '60',
        'x-request-id': String(req.headers['x-request-id']),
        'x-edge-hold-ms': '50',
        ...(refusedMs === undefined ? {} : { 'x-edge-refused-ms': refusedMs }),
      });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

function guess(edge: InProcessServer, address: string, fields: Record<string, string>, authorization = 'Basic YXBwOnNlY3JldA=='): Promise<Response> {
  return fetch(`${edge.url}/auth/token`, {
    method: 'POST',
    headers: { 'x-forwarded-for': address, authorization, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', ...fields }),
  });
}

test.serial('a login refused with x-edge-refused-ms is answered by the edge when repeated with another password: same refusal, Retry-After restated, nothing forwarded', async (t) => {
  const refusing = await startRefusingUpstream('60000');
  const edge = await startInProcess(refusing.url, { trustProxy: true }, rs.database);
  await waitFor(() => edge.server.refusals.trusted, { message: 'the revocation feed is up' });
  try {
    const first = await guess(edge, '203.0.113.20', { username: 'Victim', password: 'guess 1' });
    t.is(first.status, 429);
    const firstBody = await first.json() as { error_description: string };
    t.is(first.headers.get('x-edge-refused-ms'), null, 'the header is for the edge only');
    t.is(refusing.seen.length, 1);

    const repeat = await guess(edge, '203.0.113.20', { username: 'victim', password: 'guess 2' });
    t.is(repeat.status, 429);
    const repeated = await repeat.json() as { error: string; error_description: string };
    t.is(refusing.seen.length, 1, 'the repeat (another password, another spelling of the name) was not forwarded');
    t.is(repeated.error, 'temporarily_unavailable');
    const seconds = Number(repeat.headers.get('retry-after'));
    t.true(seconds >= 1 && seconds <= 60);
    t.is(repeated.error_description, `too many failed logins; retry after ${seconds} s`, 'the words restate the Retry-After');
    t.is(firstBody.error_description, 'too many failed logins; retry after 60 s');
    t.is(repeat.headers.get('cache-control'), 'no-store', 'the refusal\'s own headers');
    t.regex(repeat.headers.get('x-request-id') ?? '', /./);
    t.not(repeat.headers.get('x-request-id'), first.headers.get('x-request-id'), 'the repeat carries its own request id');
    t.is(repeat.headers.get('x-edge-hold-ms'), null);

    await guess(edge, '203.0.113.21', { username: 'victim', password: 'guess 3' });
    t.is(refusing.seen.length, 2, 'another address is forwarded');
    await guess(edge, '203.0.113.20', { username: 'someone else', password: 'guess 4' });
    t.is(refusing.seen.length, 3, 'another account is forwarded');
    await guess(edge, '203.0.113.20', { username: 'victim', password: 'guess 5' }, 'Basic b3RoZXI6c2VjcmV0');
    t.is(refusing.seen.length, 4, 'another client authentication is forwarded');
    await guess(edge, '203.0.113.20', { username: 'victim', password: 'guess 6', scope: 'heroes:read' });
    t.is(refusing.seen.length, 4, 'other fields than the account, the grant and the client do not make another attempt');

    // `auth users unlock` sends this notice: every edge forgets the refusals it repeats.
    await edge.db.$executeRaw`SELECT pg_notify('heroes_tokens_revoked', ${JSON.stringify({ unlockedAccount: 'account:any' })})`;
    await waitFor(async () => {
      await guess(edge, '203.0.113.20', { username: 'victim', password: 'guess 7' });
      return refusing.seen.length > 4;
    }, { message: 'still repeated after an unlock notice' });
    t.pass();
  } finally {
    await edge.close();
    refusing.close();
  }
});

/** The value of `edge_refusals_answered_total{decided_by}` on the edge's /metrics. */
async function refusalsAnswered(edge: InProcessServer, decidedBy: 'edge' | 'auth_server'): Promise<number> {
  const text = await (await fetch(`${edge.url}/metrics`)).text();
  const line = new RegExp(`^edge_refusals_answered_total\\{[^}]*decided_by="${decidedBy}"[^}]*\\} (\\d+)$`, 'm').exec(text);
  if (line === null) throw new Error(`no edge_refusals_answered_total{decided_by="${decidedBy}"} in /metrics`);
  return Number(line[1]);
}

test.serial('edge_refusals_answered_total counts the refusals the edge sent after their hold: the authorization server\'s, and the repeats it answered itself', async (t) => {
  const refusing = await startRefusingUpstream('60000');
  const edge = await startInProcess(refusing.url, { trustProxy: true }, rs.database);
  await waitFor(() => edge.server.refusals.trusted, { message: 'the revocation feed is up' });
  try {
    t.deepEqual([await refusalsAnswered(edge, 'auth_server'), await refusalsAnswered(edge, 'edge')], [0, 0], 'both series start at 0');
    t.is((await guess(edge, '203.0.113.60', { username: 'counted', password: 'guess 1' })).status, 429);
    t.deepEqual([await refusalsAnswered(edge, 'auth_server'), await refusalsAnswered(edge, 'edge')], [1, 0], 'the first refusal is the authorization server\'s');
    for (const password of ['guess 2', 'guess 3']) t.is((await guess(edge, '203.0.113.60', { username: 'counted', password })).status, 429);
    t.is(refusing.seen.length, 1, 'the repeats were not forwarded');
    t.deepEqual([await refusalsAnswered(edge, 'auth_server'), await refusalsAnswered(edge, 'edge')], [1, 2], 'the repeats are the edge\'s own');
  } finally {
    await edge.close();
    refusing.close();
  }
});

test.serial('a refusal is repeated only while it lasts, and one without x-edge-refused-ms (a client secret\'s) never', async (t) => {
  const shortly = await startRefusingUpstream('1');
  const never = await startRefusingUpstream(undefined);
  const [edgeShortly, edgeNever] = [await startInProcess(shortly.url, { trustProxy: true }, rs.database), await startInProcess(never.url, { trustProxy: true }, rs.database)];
  await waitFor(() => edgeShortly.server.refusals.trusted && edgeNever.server.refusals.trusted, { message: 'the revocation feeds are up' });
  try {
    for (let i = 0; i < 3; i++) {
      t.is((await guess(edgeShortly, '203.0.113.30', { username: 'victim', password: `guess ${i}` })).status, 429);
      t.is((await guess(edgeNever, '203.0.113.30', { username: 'victim', password: `guess ${i}` })).status, 429);
    }
    t.is(shortly.seen.length, 3, 'a refusal over by the time it was answered is not repeated');
    t.is(never.seen.length, 3);
  } finally {
    await edgeShortly.close();
    await edgeNever.close();
    shortly.close();
    never.close();
  }
});

test.serial('login attempts of one account reach the authorization server four at a time, the rest waiting at the edge in turn; another account passes meanwhile', async (t) => {
  const waiting = await startUpstream();
  const edge = await startInProcess(waiting.url, { trustProxy: true }, rs.database);
  const attempt = (address: string, username: string) => {
    const req = http.request(`${edge.url}/auth/wait`, { method: 'POST', headers: { 'x-forwarded-for': address, 'content-type': 'application/x-www-form-urlencoded' }, agent: false });
    req.on('error', () => {});
    req.end(`grant_type=password&username=${username}&password=guess`);
    return req;
  };
  try {
    const sent = Array.from({ length: 6 }, (_, i) => attempt(`203.0.113.${40 + i}`, i % 2 ? 'Laned' : 'laned'));
    await waitFor(() => waiting.waiting.length === 4, { message: 'four attempts forwarded' });
    sent.push(attempt('203.0.113.50', 'other'));
    await waitFor(() => waiting.waiting.length === 5, { message: 'another account is forwarded beside the full lane' });
    t.is(waiting.seen.length, 5, 'two attempts of the account wait at the edge');
    waiting.waiting.shift()!.end();
    await waitFor(() => waiting.seen.length === 6, { message: 'an answered attempt lets the next one go' });
    t.is(waiting.seen.length, 6);
    for (const req of sent) req.destroy();
  } finally {
    for (const res of waiting.waiting) res.end();
    await edge.close();
    await waiting.close();
  }
});
