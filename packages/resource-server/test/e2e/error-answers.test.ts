/**
 * Every answer of both servers is the service's own (docs/http.md, "Errors"): a refused identity encoding is never
 * a 500, the authorization server's 413 reaches the client as 413, every answer carries nosniff, and 501/405 are
 * not logged as errors. Real processes on one fresh database.
 */
import http from 'node:http';
import net from 'node:net';
import test from 'ava';
import type { PrismaClient } from '@heroes/db';
import { addClient, basic } from '../_helpers/oauth.ts';
import { startProcessStack, type ChildServer, type ProcessStack } from '../_helpers/processes.ts';

let stack: ProcessStack;
let db: PrismaClient;
let auth: ChildServer;
let edge: ChildServer;
const client = { id: 'answers-app', secret: 'answers-secret' };
const FORM = 'application/x-www-form-urlencoded';
/** The authorization server's limit; the edge keeps the default 10 MiB. */
const AUTH_LIMIT = 4096;

test.before(async () => {
  stack = await startProcessStack({ auth: { AUTH_MAX_BODY_BYTES: String(AUTH_LIMIT) } });
  ({ db, auth, edge } = stack);
  await addClient(db, client);
  const res = await send(edge.url, 'POST', '/register', { 'content-type': 'application/json' }, JSON.stringify({ username: 'amy', password: 'amy password' }));
  if (res.status !== 200) throw new Error(`register failed: ${res.text}`);
});
test.after.always(async () => {
  await stack?.stop();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** One request over a fresh socket; the body is sent with Content-Length. */
function send(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const passwordGrant = 'grant_type=password&username=amy&password=amy+password';
const tokenHeaders = () => ({ authorization: basic(client.id, client.secret), 'content-type': FORM });

/** method, path, headers, body: one request per route family of both servers. */
const ROUTES: Array<[string, string, Record<string, string>, string?]> = [
  ['GET', '/heroes', {}],
  ['GET', '/heroes/1', { authorization: 'Bearer nope' }],
  ['POST', '/register', { 'content-type': 'application/json' }, '{"username":"x"}'],
  ['GET', '/no/such/route', {}],
  ['GET', '/auth/code?client_id=answers-app&response_type=code', {}],
  ['POST', '/auth/token', { 'content-type': FORM }, 'grant_type=password'],
  ['POST', '/auth/revoke', { 'content-type': FORM }, 'token=x'],
  ['GET', '/.well-known/openid-configuration', {}],
  ['GET', '/health/live', {}],
];

for (const refusal of ['identity;q=0', '*;q=0', 'gzip;q=0, identity;q=0']) {
  test(`Accept-Encoding: ${refusal} → never a 5xx, JSON errors, on every route of both servers`, async (t) => {
    for (const server of [edge, auth]) {
      for (const [method, path, headers, body] of ROUTES) {
        if (server === auth && (path === '/register' || path.startsWith('/heroes'))) continue;
        const res = await send(server.url, method, path, { ...headers, 'accept-encoding': refusal }, body);
        const where = `${method} ${server === edge ? 'edge' : 'auth'} ${path}`;
        t.true(res.status < 500, `${where}: ${res.status} ${res.text}`);
        // JSON, or the login page's HTML for a browser at /auth/code.
        if (res.status >= 400) t.regex(String(res.headers['content-type']), /^(application\/json|text\/html)/, where);
        t.is(res.headers['content-encoding'], undefined, `${where}: sent without a content coding`);
      }
    }
  });
}

test('the password grant with a refused identity encoding answers its token (nothing stored then lost in a 500)', async (t) => {
  const res = await send(edge.url, 'POST', '/auth/token', { ...tokenHeaders(), 'accept-encoding': 'identity;q=0' }, passwordGrant);
  t.is(res.status, 200, res.text);
  t.is(typeof (JSON.parse(res.text) as { access_token?: unknown }).access_token, 'string');
});

test('a body over the authorization server\'s limit is a 413 through the edge, not a 503', async (t) => {
  const small = await send(edge.url, 'POST', '/auth/token', tokenHeaders(), `${passwordGrant}&pad=${'x'.repeat(AUTH_LIMIT)}`);
  t.is(small.status, 413, small.text);
  t.deepEqual(JSON.parse(small.text), { error: 'entity length exceeds maximum' });
  for (const declared of [11 * 1024 * 1024, 30 * 1024 * 1024]) {
    const res = await announce(edge.url, '/auth/token', tokenHeaders(), declared);
    t.is(res.status, 413, res.text);
    t.deepEqual(JSON.parse(res.text), { error: 'entity length exceeds maximum' });
  }
  t.is((await send(edge.url, 'POST', '/auth/token', tokenHeaders(), passwordGrant)).status, 200, 'the next request is served');
});

/**
 * A POST announcing `declared` bytes that sends its first 64 KiB and then
 * waits for the answer (an early 413 needs no more; sending everything
 * would race the server's close).
 */
function announce(base: string, path: string, headers: Record<string, string>, declared: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method: 'POST', headers: { ...headers, 'content-length': String(declared) }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') });
        req.destroy();
      });
    });
    req.on('error', reject);
    req.write(`${passwordGrant}&pad=${'x'.repeat(64 * 1024)}`);
  });
}

test('X-Content-Type-Options: nosniff on every answer of both servers', async (t) => {
  for (const server of [edge, auth]) {
    for (const [method, path, headers, body] of [...ROUTES, ['TRACE', '/auth/code', {}] as [string, string, Record<string, string>]]) {
      const res = await send(server.url, method, path, headers, body);
      t.is(res.headers['x-content-type-options'], 'nosniff', `${method} ${server === edge ? 'edge' : 'auth'} ${path} (${res.status})`);
    }
  }
});

test('TRACE and other unknown methods: a JSON 405/501, not logged as an error', async (t) => {
  for (const path of ['/auth/code', '/auth/token', '/register']) {
    const res = await send(edge.url, 'TRACE', path);
    t.true(res.status === 405 || res.status === 501, `${path}: ${res.status}`);
    t.regex(String(res.headers['content-type']), /^application\/json/);
  }
  const errorLines = `${auth.output()}\n${edge.output()}`.split('\n').filter((line) => /"level":(50|60)/.test(line));
  t.deepEqual(errorLines.filter((line) => /TRACE|not implemented|method not allowed/i.test(line)), []);
});

test.serial('a bearer token of a format the authorization server does not know is an invalid token: 401, cached, logged at most at info', async (t) => {
  // A JWT (an ID token sent by mistake), a dotted value, a very long one.
  const tokens = ['eyJhbGciOiJub25lIn0.e30.', 'not.a.token', 'x'.repeat(4000)];
  // Lookups that asked the authorization server (the edge's /metrics, which loopback may read).
  const introspections = async () => {
    const text = await (await fetch(`${edge.url}/metrics`)).text();
    const read = (result: string) => Number(new RegExp(`^introspection_cache_lookups_total\\{result="${result}"[^}]*\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    return read('miss') + read('uncached');
  };
  for (const token of tokens) {
    const before = await introspections();
    for (let round = 0; round < 3; round++) {
      const res = await send(edge.url, 'GET', '/heroes', { authorization: `Bearer ${token}` });
      t.is(res.status, 401, `${token.slice(0, 30)}: ${res.text}`);
      t.deepEqual(JSON.parse(res.text), { error: 'invalid_token' });
      t.regex(String(res.headers['www-authenticate']), /^Bearer .*error="invalid_token"/);
    }
    // Cached as inactive: asked once, not on every request.
    t.is(await introspections() - before, 1, token.slice(0, 30));
  }
  const loud = edge.output().split('\n').filter((line) => /"level":(40|50|60)/.test(line) && /introspect|unsupported_token_type|authorization server/i.test(line));
  t.deepEqual(loud, []);
});

test('a second Host, Content-Type or Authorization → 400 JSON at both servers and through the edge (forwarded or not), never forwarded', async (t) => {
  const raw = (base: string, lines: string) => new Promise<string>((resolve, reject) => {
    const url = new URL(base);
    const socket = net.connect(Number(url.port), url.hostname, () => socket.end(lines));
    let text = '';
    socket.on('data', (chunk: Buffer) => { text += chunk.toString('utf8'); });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
  const form = 'grant_type=password&username=amy&password=amy+password';
  const shapes = [
    `POST /auth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nAuthorization: ${basic(client.id, client.secret)}\r\nContent-Type: ${FORM}\r\nContent-Length: ${form.length}\r\n\r\n${form}`,
    `POST /auth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${basic(client.id, client.secret)}\r\nContent-Type: ${FORM}\r\nContent-Type: application/json\r\nContent-Length: ${form.length}\r\n\r\n${form}`,
    `POST /auth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${basic(client.id, client.secret)}\r\nAuthorization: ${basic('other', 'x')}\r\nContent-Type: ${FORM}\r\nContent-Length: ${form.length}\r\n\r\n${form}`,
    'GET /.well-known/oauth-authorization-server HTTP/1.1\r\nHost: 127.0.0.1\r\nhost: evil.example\r\n\r\n',
    'GET /heroes HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer a\r\nAuthorization: Bearer b\r\n\r\n',
  ];
  for (const base of [edge.url, auth.url]) {
    for (const shape of shapes) {
      const text = await raw(base, shape);
      const label = `${base} ${shape.split('\r\n').slice(0, 4).join(' | ')}`;
      t.regex(text, /^HTTP\/1\.1 400 /, label);
      t.regex(text, /\r\ncontent-type: application\/json/i, label);
      t.regex(text.slice(text.indexOf('\r\n\r\n') + 4), /^\{"error":"repeated (Host|Content-Type|Authorization) header"\}$/, label);
    }
  }
});
