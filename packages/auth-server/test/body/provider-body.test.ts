/**
 * Form bodies of /auth/token, /auth/revoke and /auth/introspect follow the
 * service's body rules (docs/http.md, "Request bodies": size limit, charsets)
 * instead of oidc-provider's own reader (a 56 KiB cap answered
 * with 400, and the charset ignored).
 */
import test from 'ava';
import http from 'node:http';
import { exchange, jsonBody } from '@heroes/test-kit';
import { addClient, addUser, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic } from '../_helpers/http.ts';

const warnings: string[] = [];
const warn = console.warn;
console.warn = (...args: unknown[]) => {
  warnings.push(args.map(String).join(' '));
  warn(...args);
};

let s: TestServer;
let small: TestServer;
const conf = basic('conf', 'secret');
const FORM = 'application/x-www-form-urlencoded';

test.before(async () => {
  s = await startTestServer();
  small = await startTestServer({ authMaxBodyBytes: 1024 });
  for (const server of [s, small]) {
    await addClient(server.db, { id: 'conf', secret: 'secret' });
    await addClient(server.db, { id: 'pub' });
    await addClient(server.db, { id: 'resource-server', secret: 'rs-secret' });
    await addUser(server.db, 'bob', 'hero-password-1');
    await addUser(server.db, 'lat', 'p\u00e4ssword-1');
  }
});
test.after.always(async () => {
  await s?.close();
  await small?.close();
  console.warn = warn;
});

async function post(base: string, path: string, body: string | Buffer, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': FORM, ...headers }, body });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {}
  return { status: response.status, text, json };
}

const grant = 'grant_type=password&username=bob&password=hero-password-1';
const padding = (bytes: number) => `&padding=${'x'.repeat(bytes)}`;

test('a 60 KB token request (over the library\'s 56 KiB cap) is accepted', async (t) => {
  const res = await post(s.url, '/auth/token', grant + padding(60 * 1024), { authorization: conf });
  t.is(res.status, 200, res.text);
  t.is(typeof res.json['access_token'], 'string');
});

test('60 KB revocation and introspection requests are accepted', async (t) => {
  const issued = await post(s.url, '/auth/token', grant, { authorization: conf });
  const token = String(issued.json['access_token']);
  const introspected = await post(s.url, '/auth/introspect', `token=${token}${padding(60 * 1024)}`, { authorization: basic('resource-server', 'rs-secret') });
  t.is(introspected.status, 200, introspected.text);
  t.is(introspected.json['active'], true);
  const revoked = await post(s.url, '/auth/revoke', `token=${token}${padding(60 * 1024)}`, { authorization: conf });
  t.is(revoked.status, 200, revoked.text);
  t.deepEqual((await post(s.url, '/auth/introspect', `token=${token}`, { authorization: basic('resource-server', 'rs-secret') })).json, { active: false });
});

for (const path of ['/auth/token', '/auth/revoke', '/auth/introspect', '/auth/code']) {
  test(`${path}: a Content-Length over AUTH_MAX_BODY_BYTES (64 KiB by default, not the hero routes' 10 MiB) → 413 before a byte of body is sent, no client credentials needed`, async (t) => {
    const head = `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${FORM}\r\nContent-Length: ${64 * 1024 + 1}\r\n\r\n`;
    const res = await exchange(Number(new URL(s.url).port), head, { waitMs: 10_000, until: /\r\n\r\n\{.*\}/s });
    t.regex(res.text, /^HTTP\/1\.1 413 /, res.text || 'no answer while the body was withheld');
    t.deepEqual(jsonBody(res.text), { error: 'entity length exceeds maximum' });
  });
}

test('a 9.5 MB token request without client credentials (username=a+a+…) → 413 entity length exceeds maximum', async (t) => {
  const res = await post(s.url, '/auth/token', `grant_type=password&username=${'a+'.repeat(4_750_000)}`);
  t.is(res.status, 413);
  t.deepEqual(res.json, { error: 'entity length exceeds maximum' });
});

for (const path of ['/auth/token', '/auth/revoke', '/auth/introspect']) {
  test(`${path}: the configured limit (authMaxBodyBytes 1024): exactly at it passes the reader, one byte more → 413`, async (t) => {
    const base = path === '/auth/token' ? grant : 'token=abc';
    const at = base + '&p=' + 'x'.repeat(1024 - base.length - 3);
    t.is(Buffer.byteLength(at), 1024);
    const authorization = path === '/auth/introspect' ? basic('resource-server', 'rs-secret') : conf;
    const ok = await post(small.url, path, at, { authorization });
    t.is(ok.status, 200, ok.text);
    const over = await post(small.url, path, at + 'x', { authorization });
    t.is(over.status, 413);
    t.deepEqual(over.json, { error: 'entity length exceeds maximum' });
  });
}

test('a chunked body over the limit (no Content-Length) → 413', async (t) => {
  const url = new URL(`${small.url}/auth/token`);
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'content-type': FORM, authorization: conf } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    for (let i = 0; i < 4; i++) req.write(`${i === 0 ? grant : ''}&p${i}=${'x'.repeat(400)}`);
    req.end();
  });
  t.is(status, 413);
});

test('a public client (Basic id:) with a large body still gets its token', async (t) => {
  const res = await post(s.url, '/auth/token', grant + padding(60 * 1024), { authorization: basic('pub', '') });
  t.is(res.status, 200, res.text);
});

test('charset=iso-8859-1: a percent-escaped latin1 byte is read in that charset (p%E4ss is päss)', async (t) => {
  const res = await post(s.url, '/auth/token', 'grant_type=password&username=lat&password=p%E4ssword-1', {
    authorization: conf,
    'content-type': `${FORM}; charset=iso-8859-1`,
  });
  t.is(res.status, 200, res.text);
});

test('charset=iso-8859-1: a raw latin1 byte is read in that charset', async (t) => {
  const body = Buffer.from('grant_type=password&username=lat&password=p\xe4ssword-1', 'latin1');
  const res = await post(s.url, '/auth/token', body, { authorization: conf, 'content-type': `${FORM}; charset=ISO-8859-1` });
  t.is(res.status, 200, res.text);
});

test('no charset: UTF-8 (p%C3%A4ss is päss; the latin1 escape is not)', async (t) => {
  t.is((await post(s.url, '/auth/token', 'grant_type=password&username=lat&password=p%C3%A4ssword-1', { authorization: conf })).status, 200);
  const latin1 = await post(s.url, '/auth/token', 'grant_type=password&username=lat&password=p%E4ssword-1', { authorization: conf });
  t.is(latin1.status, 400);
  t.deepEqual(latin1.json, { error: 'request entity could not be decoded' });
});

for (const path of ['/auth/token', '/auth/revoke', '/auth/introspect']) {
  test(`${path}: an unknown charset → 415 invalid charset, nothing issued`, async (t) => {
    const res = await post(s.url, path, grant, { authorization: conf, 'content-type': `${FORM}; charset=klingon` });
    t.is(res.status, 415);
    t.deepEqual(res.json, { error: "invalid charset 'klingon'" });
  });
}

test('a malformed escape → 400 request entity could not be decoded', async (t) => {
  const res = await post(s.url, '/auth/token', `${grant}&x=%zz`, { authorization: conf });
  t.is(res.status, 400);
  t.deepEqual(res.json, { error: 'request entity could not be decoded' });
});

test('a JSON body keeps the library\'s clear 400', async (t) => {
  const res = await post(s.url, '/auth/token', JSON.stringify({ grant_type: 'password' }), { authorization: conf, 'content-type': 'application/json' });
  t.is(res.status, 400);
  t.is(res.json['error'], 'invalid_request');
  t.regex(String(res.json['error_description']), /only application\/x-www-form-urlencoded/);
});

test('repeated parameters are still refused by the library', async (t) => {
  const res = await post(s.url, '/auth/token', `${grant}&username=bob`, { authorization: conf });
  t.is(res.status, 400);
  t.is(res.json['error'], 'invalid_request');
});

for (const path of ['/auth/token', '/auth/revoke', '/auth/introspect', '/auth/code']) {
  test(`${path}: more than 1,000 form parameters → 413 JSON, before client authentication`, async (t) => {
    const res = await post(s.url, path, 'a&'.repeat(1001));
    t.is(res.status, 413);
    t.deepEqual(res.json, { error: 'too many form parameters' });
  });
}

test('1,000 repeated keys (a 60 KB body when they were copied per repeat) answer at once', async (t) => {
  const res = await post(s.url, '/auth/token', `${grant}${'&a'.repeat(997)}`, { authorization: conf });
  t.is(res.status, 200, res.text);
});

test('POST /auth/code reads its form in the declared charset too', async (t) => {
  await addClient(s.db, { id: 'web', secret: 'web-secret', redirectUri: 'http://127.0.0.1:9/cb' });
  const res = await fetch(`${s.url}/auth/code`, {
    method: 'POST',
    headers: { 'content-type': `${FORM}; charset=iso-8859-1` },
    body: 'client_id=web&response_type=code&state=s&username=lat&password=p%E4ssword-1',
    redirect: 'manual',
  });
  t.is(res.status, 302);
  t.regex(res.headers.get('location') ?? '', /[?&]code=/);
});

test('handing the parsed form to the library prints no "already parsed request body" warning', async (t) => {
  t.is((await post(s.url, '/auth/token', grant, { authorization: conf })).status, 200);
  t.deepEqual(warnings.filter((line) => line.includes('oidc-provider')), []);
});
