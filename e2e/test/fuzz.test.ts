/**
 * Property-based abuse suite (fast-check): random methods, paths, query
 * strings, headers, content types and encodings, and bodies sent to every
 * route of a running stack — the authorization server and the edge in
 * front of it, on a fresh database, reached through the edge as clients do.
 *
 * Every answer must be:
 * - below 500, or a documented 503 (busy or unavailable: JSON `error`,
 *   always with Retry-After: a 503 means nothing was written, retry later),
 *   or 501 for a method no route knows;
 * - on an error status, the service's JSON `{"error": ...}` (the login page
 *   at /auth/code answers HTML pages, by design);
 * and after each batch the next good request is still served (no crash, no
 * wedged server).
 *
 * Bounded: a fixed number of runs and a fixed seed (FUZZ_SEED overrides;
 * fast-check prints the seed and the shrunk counterexample on failure).
 */
import http from 'node:http';
import { brotliDecompressSync, deflateSync, gunzipSync, gzipSync, inflateSync } from 'node:zlib';
import test from 'ava';
import fc from 'fast-check';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@heroes/test-kit';
import { prepareUsername, textProblem } from '@heroes/text-rules';
import { basic, exchange, jsonBody, postFormBody, probeLatencyWhile } from '@heroes/test-kit';
import { startInProcessStack, type InProcessStack } from './_helpers/in-process-stack.ts';
import { PASSWORD_CLIENT_ID, registerPasswordClient } from './_helpers/password-client.ts';

const SEED = Number(process.env['FUZZ_SEED'] ?? 20_261_123);
const RUNS = 1_000;

let database: TestDatabase;
let stack: InProcessStack | undefined;
let edge = '';
let goodToken = '';

test.before(async () => {
  database = await createTestDatabase();
  const limits = { dbConnectTimeoutMs: 20_000, dbQueryTimeoutMs: 20_000 };
  await registerPasswordClient(database.url);
  // Registrations are not limited per address here: the tricky-names property registers hundreds from 127.0.0.1.
  stack = await startInProcessStack(database.url, limits, { ...limits, introspectionTimeoutMs: 20_000, registerAddressLimit: 100_000 });
  edge = stack.edge;
  const registered = await fetch(`${edge}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"username":"fuzz-user","password":"fuzz password"}' });
  if (registered.status !== 200) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  const token = await fetch(`${edge}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', client_id: PASSWORD_CLIENT_ID, username: 'fuzz-user', password: 'fuzz password' }),
  });
  const body = (await token.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`token: ${token.status} ${JSON.stringify(body)}`);
  goodToken = body.access_token;
});

test.after.always(async () => {
  await stack?.close();
  await database?.drop();
});

interface Answer {
  status: number;
  contentType: string;
  retryAfter: string | undefined;
  body: string;
}

interface Shot {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  /** A header that must appear once (docs/http.md), sent a second time with another value: the answer must be 400. */
  repeated: string | undefined;
  body: Buffer | undefined;
}

/** The header lines of a shot, as node:http sends a flat [name, value, …] list: names may repeat. */
function headerLines(shot: Shot, url: URL): string[] {
  const headers: Record<string, string> = { host: url.host, ...shot.headers };
  if (shot.body !== undefined) headers['content-length'] = String(shot.body.length);
  const lines = Object.entries(headers).flat();
  if (shot.repeated !== undefined) {
    const name = shot.repeated.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
    const first = headers[shot.repeated];
    const second = shot.repeated === 'content-length' ? first ?? '0' : shot.repeated === 'host' ? 'evil.example' : `${first ?? ''}x`;
    if (first === undefined) lines.push(name, second);
    lines.push(name, second);
  }
  return lines;
}

/** One raw request (node:http: any method, any header the HTTP syntax allows). */
function send(shot: Shot): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const url = new URL(edge);
    const req = http.request(
      { host: url.hostname, port: url.port, method: shot.method, path: shot.path + shot.query, headers: headerLines(shot, url), agent: false, timeout: 60_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          retryAfter: res.headers['retry-after'],
          body: decoded(String(res.headers['content-encoding'] ?? ''), Buffer.concat(chunks)).toString('utf8'),
        }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within 60 s: ${shot.method} ${shot.path}`)));
    req.on('error', reject);
    req.end(shot.body);
  });
}

/** The answer's bytes with its Content-Encoding undone (the fuzzer asks for gzip and others too). */
function decoded(coding: string, bytes: Buffer): Buffer {
  if (bytes.length === 0) return bytes;
  if (coding === 'gzip') return gunzipSync(bytes);
  if (coding === 'deflate') return inflateSync(bytes);
  if (coding === 'br') return brotliDecompressSync(bytes);
  return bytes;
}

const PATHS = [
  '/register', '/heroes', '/heroes/1', '/heroes/0', '/heroes/-1', '/heroes/99999999999999999999', '/heroes/abc',
  '/auth/token', '/auth/code', '/auth/revoke', '/auth/introspect', '/auth/jwks', '/auth/nope',
  '/.well-known/oauth-authorization-server', '/.well-known/openid-configuration',
  '/openapi.json', '/docs', '/app', '/app/callback', '/health/live', '/health/ready', '/metrics', '/', '/nowhere',
];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND', 'FOO'];
/** Methods every route either serves or answers 405 to; other ones may be 501 (no route knows them). */
const KNOWN_METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']);

const token = fc.stringMatching(/^[A-Za-z0-9_\-.~+/=]{0,60}$/);
const headerText = fc.stringMatching(/^[\x20-\x7e]{0,80}$/);
const text = fc.string({ maxLength: 200, unit: 'binary' });

const queryString = fc.oneof(
  fc.constant(''),
  fc.array(fc.tuple(fc.string({ maxLength: 12, unit: 'binary' }), fc.string({ maxLength: 24, unit: 'binary' })), { maxLength: 8 })
    .map((pairs) => `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`),
  fc.stringMatching(/^\?[\x21-\x7e]{0,60}$/).map((raw) => raw.replace(/#/g, '%23')),
  fc.integer({ min: 900, max: 1_200 }).map((n) => `?${Array.from({ length: n }, (_, i) => `k${i}=v`).join('&')}`),
);

/** The shapes an identity provider must refuse or fold: C1 controls, invisible and spacing characters, and look-alikes from other scripts and widths. */
const TRICKY_CHARACTERS = ['\u0085', '\u009b', '\u0080', '\u009f', '\u001b', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad', '\u202e', '\u3164', '\ufe0f', '\u0301', '\u3000', '\u00a0', ' ', '\t'];
const LOOK_ALIKES = ['a', '\u0430', 'A', '\uff41', '\u0391', 'l', '1', 'I', '\u04cf', 'o', '0', '\u043e', 'rn', 'm', 'e', '\u0435', '\u00e9', 'e\u0301', 'p', '\u0440', '\u03c1', 'c', '\u0441'];
const trickyName = fc.array(fc.oneof(
  { arbitrary: fc.constantFrom(...TRICKY_CHARACTERS), weight: 1 },
  { arbitrary: fc.constantFrom(...LOOK_ALIKES), weight: 4 },
), { minLength: 1, maxLength: 8 }).map((parts) => parts.join(''));

const bodyText = fc.oneof(
  text,
  trickyName.map((name) => JSON.stringify({ username: name, password: 'fuzz long password', name })),
  fc.json({ maxDepth: 4 }),
  fc.dictionary(fc.constantFrom('username', 'password', 'name', 'grant_type', 'client_id', 'token', 'scope', 'id', 'x'), fc.oneof(fc.string({ maxLength: 30 }), fc.integer(), fc.constant(null)))
    .map((object) => JSON.stringify(object)),
  fc.dictionary(fc.constantFrom('username', 'password', 'grant_type', 'client_id', 'token', 'scope', 'response_type', 'state', 'redirect_uri'), fc.string({ maxLength: 30 }))
    .map((object) => new URLSearchParams(object).toString()),
  fc.integer({ min: 1, max: 3_000 }).map((n) => 'a&'.repeat(n)),
  fc.integer({ min: 1, max: 200 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
);

const encoding = fc.constantFrom('none', 'gzip', 'deflate', 'gzip-lie', 'br', 'identity', 'x-bogus', 'gzip, gzip');

const shot: fc.Arbitrary<Shot> = fc.record({
  method: fc.constantFrom(...METHODS),
  path: fc.oneof(
    { arbitrary: fc.constantFrom(...PATHS), weight: 4 },
    { arbitrary: fc.tuple(fc.constantFrom(...PATHS), fc.stringMatching(/^[A-Za-z0-9%._~-]{0,20}$/)).map(([p, s]) => `${p}/${s}`), weight: 1 },
  ),
  query: queryString,
  contentType: fc.option(fc.oneof(
    fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain', 'application/json; charset=latin1',
      'application/x-www-form-urlencoded; charset=utf-16', 'multipart/form-data; boundary=x', 'application/json; charset=nope', 'application/octet-stream'),
    headerText,
  )),
  encoding,
  acceptEncoding: fc.option(fc.constantFrom('gzip', 'identity;q=0', '*;q=0', 'br;q=1, gzip;q=0', 'x-bogus', 'identity;q=0, *;q=0')),
  authorization: fc.option(fc.oneof(
    token.map((value) => `Bearer ${value}`),
    token.map((value) => `Basic ${value}`),
    fc.constant(basic('resource-server', 'wrong')),
    headerText,
  )),
  extra: fc.dictionary(fc.constantFrom('x-forwarded-for', 'x-forwarded-proto', 'origin', 'accept', 'x-request-id', 'cookie', 'range', 'expect'), headerText, { maxKeys: 3 }),
  body: fc.option(bodyText),
  // One request in ten repeats a header that must appear once.
  repeated: fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 9 },
    { arbitrary: fc.constantFrom('host', 'content-length', 'content-type', 'authorization'), weight: 1 },
  ),
}).map(({ method, path, query, contentType, encoding: coding, acceptEncoding, authorization, extra, body, repeated }) => {
  const headers: Record<string, string> = { ...extra };
  delete headers['expect']; // 100-continue with a body already sent would only slow the run
  if (contentType !== null) headers['content-type'] = contentType;
  if (acceptEncoding !== null) headers['accept-encoding'] = acceptEncoding;
  if (authorization !== null) headers['authorization'] = authorization;
  let bytes = body === null ? undefined : Buffer.from(body, 'utf8');
  if (bytes !== undefined && coding !== 'none') {
    headers['content-encoding'] = coding === 'gzip-lie' ? 'gzip' : coding;
    if (coding === 'gzip' || coding === 'gzip, gzip') bytes = gzipSync(coding === 'gzip' ? bytes : gzipSync(bytes));
    if (coding === 'deflate') bytes = deflateSync(bytes);
  }
  return { method, path, query, headers, repeated, body: bytes };
});

/** The rules every answer keeps; a description of the first one broken, or undefined. */
function problemWith(request: Shot, answer: Answer): string | undefined {
  const { status } = answer;
  if (request.repeated !== undefined && status !== 400) return `a repeated ${request.repeated} header answered ${status}, not 400`;
  if (status >= 500) {
    const documented = status === 503 || (status === 501 && !KNOWN_METHODS.has(request.method));
    if (!documented) return `status ${status}`;
    if (status === 503 && !/^\d+$/.test(answer.retryAfter ?? '')) return `503 without Retry-After: ${answer.body.slice(0, 200)}`;
  }
  if (status < 400 || request.method === 'HEAD') return undefined;
  const html = answer.contentType.startsWith('text/html');
  if (html && request.path.startsWith('/auth/code')) return undefined; // the login flow's error pages
  if (!answer.contentType.startsWith('application/json')) return `error ${status} as ${answer.contentType || 'no content type'}`;
  try {
    const parsed = JSON.parse(answer.body) as unknown;
    if (typeof parsed !== 'object' || parsed === null || typeof (parsed as { error?: unknown }).error !== 'string') return `error ${status} without an "error" member: ${answer.body.slice(0, 200)}`;
  } catch {
    return `error ${status} with a body that is not JSON: ${answer.body.slice(0, 200)}`;
  }
  return undefined;
}

async function goodRequestsServed(): Promise<string | undefined> {
  const heroes = await fetch(`${edge}/heroes`, { headers: { authorization: `Bearer ${goodToken}` } });
  await heroes.arrayBuffer();
  if (heroes.status !== 200) return `GET /heroes with a good token answered ${heroes.status}`;
  const metadata = await fetch(`${edge}/.well-known/oauth-authorization-server`);
  await metadata.arrayBuffer();
  if (metadata.status !== 200) return `the metadata document answered ${metadata.status}`;
  return undefined;
}

test('random requests to every route: no undocumented 5xx, JSON errors, and good requests still served', async (t) => {
  t.log(`fast-check seed ${SEED}, ${RUNS} runs (FUZZ_SEED=<n> to replay another)`);
  let sent = 0;
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(shot, async (request) => {
      const answer = await send(request);
      sent++;
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      const problem = problemWith(request, answer);
      if (problem) throw new Error(`${request.method} ${request.path}${request.query.slice(0, 80)}: ${problem}`);
      if (sent % 50 === 0) {
        const wedged = await goodRequestsServed();
        if (wedged) throw new Error(`after ${request.method} ${request.path}: ${wedged}`);
      }
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  );
  t.log(`statuses: ${[...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(' ')}`);
  t.is(await goodRequestsServed(), undefined);
  t.true(sent >= RUNS);
  // The requests reached the routes: successes and several kinds of refusal, not one blanket answer.
  t.true([...statuses.keys()].some((status) => status < 300), 'some succeeded');
  t.true([...statuses.keys()].filter((status) => status >= 400).length >= 4, 'several kinds of errors');
});

test.serial('tricky names (C1 controls, invisible characters, look-alikes) at /register and /heroes: what is stored keeps the text rule, and no two accounts share a key or a skeleton', async (t) => {
  const statuses = new Map<string, number>();
  await fc.assert(
    fc.asyncProperty(trickyName, async (name) => {
      for (const [path, body, headers] of [
        ['/register', { username: name, password: 'fuzz long password' }, {}],
        ['/heroes', { name }, { authorization: `Bearer ${goodToken}` }],
      ] as const) {
        const res = await fetch(`${edge}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
        const answer = (await res.json()) as { error?: string; reasons?: string[]; username?: string; name?: string };
        statuses.set(`${path} ${res.status}`, (statuses.get(`${path} ${res.status}`) ?? 0) + 1);
        if (![200, 400, 409].includes(res.status)) throw new Error(`${path} ${JSON.stringify(name)}: ${res.status} ${JSON.stringify(answer)}`);
        if (res.status === 200 && (answer.username ?? answer.name) !== name) throw new Error(`${path} ${JSON.stringify(name)}: stored as ${JSON.stringify(answer)}`);
        if (res.status !== 200 && typeof answer.error !== 'string') throw new Error(`${path} ${JSON.stringify(name)}: ${JSON.stringify(answer)}`);
      }
    }),
    { numRuns: 250, seed: SEED, endOnFailure: true },
  );
  t.log(`statuses: ${[...statuses].sort().map(([key, n]) => `${key}×${n}`).join(', ')}`);
  for (const kind of ['/register 200', '/register 400', '/register 409', '/heroes 200', '/heroes 400', '/heroes 409']) t.true((statuses.get(kind) ?? 0) > 0, kind);

  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const users = (await client.query<{ username: string; username_key: string; username_skeleton: string }>('SELECT username, username_key, username_skeleton FROM users')).rows;
    const keys = new Set<string>();
    const skeletons = new Set<string>();
    for (const user of users) {
      const prepared = prepareUsername(user.username);
      t.true(prepared.ok, JSON.stringify(user.username));
      if (!prepared.ok) continue;
      t.deepEqual([user.username_key, user.username_skeleton], [prepared.key, prepared.skeleton], JSON.stringify(user.username));
      t.false(keys.has(prepared.key) || skeletons.has(prepared.skeleton), `a second account for ${JSON.stringify(user.username)}`);
      keys.add(prepared.key);
      skeletons.add(prepared.skeleton);
    }
    const heroes = (await client.query<{ name: string }>('SELECT name FROM heroes')).rows;
    for (const { name } of heroes) t.is(textProblem(name), undefined, JSON.stringify(name));
  } finally {
    await client.end();
  }
});

/**
 * The large anonymous forms that once stalled a server for seconds
 * (docs/http.md, body limits): 9-10 MB bodies at the token endpoint without client
 * credentials, at /register, and at a hero route (the only routes that
 * still read 10 MB: decoded there). Sent with Content-Length (refused
 * before reading) and chunked (cut at the limit). Both servers run in this
 * process, so /health/live answers only when no request blocks the shared
 * event loop: it must keep answering while each form is handled. How long
 * its slowest answer took is logged here and measured (goal 50 ms) by the
 * bench's big-forms section: a test bounds no time on a loaded machine.
 */
const BIG_FORMS: Array<[string, () => Buffer]> = [
  ['grant_type=password&username=a+a+… (9.5 MB)', () => Buffer.from(`grant_type=password&username=${'a+'.repeat(4_750_000)}`)],
  ['10 MB of +', () => Buffer.alloc(10_000_000, '+')],
  ['name=%41%41… (9 MB of escapes)', () => Buffer.from(`name=${'%41'.repeat(3_000_000)}`)],
];
const BIG_FORM_TARGETS = ['/auth/token', '/register', '/heroes'];

/** POSTs `body` as a form at `path` of the edge (with a good bearer token at the hero route). */
function postForm(path: string, body: Buffer, chunked: boolean): Promise<number | 'reset'> {
  return postFormBody(`${edge}${path}`, body, { chunked, headers: path === '/heroes' ? { authorization: `Bearer ${goodToken}` } : {} });
}

test.serial('9-10 MB forms at /auth/token (no client credentials), /register and a hero route never block the event loop: /health/live keeps answering', async (t) => {
  for (const [shape, make] of BIG_FORMS) {
    const body = make();
    for (const path of BIG_FORM_TARGETS) {
      for (const chunked of [false, true]) {
        const label = `${shape} at ${path}, ${chunked ? 'chunked' : 'with Content-Length'}`;
        const { result, slowestMs, probes } = await probeLatencyWhile(`${edge}/health/live`, () => postForm(path, body, chunked));
        t.true(result === 'reset' || (result >= 400 && result < 500), `${label}: ${result}`);
        t.true(probes > 0, `${label}: probed`);
        t.log(`${label}: ${result}, slowest /health/live ${slowestMs.toFixed(0)} ms over ${probes} probes`);
      }
    }
  }
  t.is(await goodRequestsServed(), undefined);
});

test('the requests Node\'s HTTP parser refuses are answered in JSON too, through the edge', async (t) => {
  const { port } = new URL(edge);
  const shots: Array<[string, number]> = [
    ['GET /heroes HTTP/1.1\r\n\r\n', 400], // no Host
    ['GET /heroes HTTP/1.1\r\nHost: x\r\nExpect: foo\r\n\r\n', 417],
    [`GET /heroes HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ['NOT HTTP AT ALL\r\n\r\n', 400],
    ['POST /register HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', 400],
  ];
  for (const [payload, status] of shots) {
    const res = await exchange(Number(port), payload, { until: /\r\n\r\n[\s\S]*\}$/ });
    t.regex(res.text, new RegExp(`^HTTP/1\\.1 ${status} `), payload.slice(0, 40));
    t.regex(res.text, /\r\nContent-Type: application\/json/i, payload.slice(0, 40));
    t.is(typeof (jsonBody(res.text) as { error?: unknown }).error, 'string', payload.slice(0, 40));
  }
});
