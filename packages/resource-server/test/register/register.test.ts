import { deflateSync, gzipSync } from 'node:zlib';
import test from 'ava';
import bcrypt from 'bcrypt';
import { startFakeAuthServer, type FakeAuthServer } from '../_helpers/fake-auth-server.ts';
import { startInProcess, type InProcessServer } from '../_helpers/in-process.ts';
import { request } from '../_helpers/http.ts';

let auth: FakeAuthServer;
let rs: InProcessServer;

test.before(async () => {
  auth = await startFakeAuthServer();
  rs = await startInProcess(auth.url);
});
test.after.always(async () => {
  await rs?.close();
  await auth?.close();
});

const register = (json: unknown, headers: Record<string, string> = {}) =>
  request(`${rs.url}/register`, { method: 'POST', json, headers });

test('200 with only id and username; password stored as a bcrypt hash', async (t) => {
  const res = await register({ username: 'bob', password: 'foobaxx-password' });
  t.is(res.status, 200);
  const body = res.body as { id: number; username: string };
  t.deepEqual(Object.keys(body).sort(), ['id', 'username']);
  t.is(body.username, 'bob');
  t.true(Number.isInteger(body.id) && body.id > 0);
  t.regex(res.headers.get('content-type') ?? '', /^application\/json; charset=utf-8/);
  const user = await rs.db.user.findUniqueOrThrow({ where: { id: body.id } });
  t.true(await bcrypt.compare('foobaxx-password', user.hashedPassword));
  t.is(user.hashedPassword.slice(0, 29), user.salt, 'salt is the bcrypt salt string of the hash');
  t.regex(user.salt, /^\$2[aby]\$04\$/);
});

test('each user gets a different salt', async (t) => {
  const a = await register({ username: 'salt-a', password: 'same password' });
  const b = await register({ username: 'salt-b', password: 'same password' });
  const [ua, ub] = await Promise.all([
    rs.db.user.findUniqueOrThrow({ where: { id: (a.body as { id: number }).id } }),
    rs.db.user.findUniqueOrThrow({ where: { id: (b.body as { id: number }).id } }),
  ]);
  t.not(ua.salt, ub.salt);
  t.not(ua.hashedPassword, ub.hashedPassword);
});

for (const [title, body] of [
  ['missing password', { username: 'nopass' }],
  ['missing username', { password: 'hero-password-1' }],
  ['empty object', {}],
  ['null username', { username: null, password: 'hero-password-1' }],
  ['empty password', { username: 'empty', password: '' }],
  ['empty username', { username: '', password: 'hero-password-1' }],
] as const) {
  test(`400 "username and password required." for ${title}`, async (t) => {
    const res = await register(body);
    t.is(res.status, 400);
    t.deepEqual(res.body, { error: 'username and password required.' });
  });
}

test('409 for a duplicate username; the stored name keeps the case it was typed in', async (t) => {
  const first = await register({ username: 'Dup', password: 'dup-password-1' });
  t.is(first.status, 200);
  t.is((first.body as { username: string }).username, 'Dup');
  const again = await register({ username: 'Dup', password: 'dup-password-2' });
  t.is(again.status, 409);
  t.is((again.body as { error: string }).error, 'entity_already_exists');
  t.is((await register({ username: 'dup', password: 'dup-password-3' })).status, 409, 'one name in any case');
  t.is((await register({ username: ' dup ', password: 'dup-password-4' })).status, 400, 'never trimmed: refused');
});

test('hashedPassword, salt and id sent by the client are never stored', async (t) => {
  const res = await register({ username: 'sneaky', password: 'real-password', hashedPassword: 'x', salt: 'y', id: 999 });
  t.is(res.status, 200);
  const body = res.body as { id: number };
  t.not(body.id, 999);
  t.deepEqual(Object.keys(body).sort(), ['id', 'username']);
  const user = await rs.db.user.findUniqueOrThrow({ where: { username: 'sneaky' } });
  t.not(user.hashedPassword, 'x');
  t.not(user.salt, 'y');
  t.true(await bcrypt.compare('real-password', user.hashedPassword));
});

test('unknown keys → 400 entity validation failed', async (t) => {
  const res = await register({ username: 'u1', password: 'hero-password-1', admin: true });
  t.is(res.status, 400);
  t.deepEqual(res.body, { error: 'entity validation failed', reasons: ["invalid input key 'admin'"] });
});

test('wrong types → 400 invalid input value', async (t) => {
  for (const [key, body] of [
    ['username', { username: 5, password: 'hero-password-1' }],
    ['password', { username: 'typed', password: ['p'] }],
    ['username', { username: { a: 1 }, password: 'hero-password-1' }],
  ] as const) {
    const res = await register(body);
    t.is(res.status, 400);
    t.deepEqual(res.body, { error: 'entity validation failed', reasons: [`invalid input value for '${key}'`] });
  }
});

test('username length: 150 characters pass, 151 → 400', async (t) => {
  t.is((await register({ username: 'u'.repeat(150), password: 'hero-password-1' })).status, 200);
  const res = await register({ username: 'v'.repeat(151), password: 'hero-password-1' });
  t.is(res.status, 400);
  t.deepEqual(res.body, { error: 'entity validation failed', reasons: ["'username' must be at most 150 characters"] });
});

test('password over 72 UTF-8 bytes → 400; exactly 72 passes', async (t) => {
  t.is((await register({ username: 'pw72', password: 'pw'.repeat(36) })).status, 200);
  const long = await register({ username: 'pw73', password: 'pw'.repeat(36) + 'x' });
  t.is(long.status, 400);
  t.deepEqual(long.body, { error: 'entity validation failed', reasons: ["'password' must be at most 72 bytes (UTF-8)"] });
  const multibyte = await register({ username: 'pw-utf8', password: 'é'.repeat(37) }); // 74 bytes, 37 chars
  t.is(multibyte.status, 400);
});

test('control characters in the username or NUL in the password → 400', async (t) => {
  t.is((await register({ username: 'nul\u0000name', password: 'hero-password-1' })).status, 400);
  t.is((await register({ username: 'nulpw', password: 'hero\u0000password' })).status, 400);
});

test('one identifier rule (RFC 8265): after alice, every look-alike spelling is the same account (409) or no name at all (400)', async (t) => {
  const first = await register({ username: 'alice', password: 'alice-long-password' });
  t.is(first.status, 200);
  const taken = { error: 'entity_already_exists' };
  for (const username of ['Alice', 'ALICE', '\uff41\uff4c\uff49\uff43\uff45']) {
    const res = await register({ username, password: 'other-long-password' });
    t.deepEqual([res.status, res.body], [409, taken], JSON.stringify(username));
  }
  const nfc = await register({ username: 'jos\u00e9', password: 'jose-long-password' });
  t.is(nfc.status, 200);
  const nfd = await register({ username: 'jose\u0301', password: 'jose-long-password' });
  t.is(nfd.status, 409, 'NFD after NFC');
  const refused = (reason: string) => ({ error: 'entity validation failed', reasons: [`'username' ${reason}`] });
  for (const [username, reason] of [
    ['alice ', 'must not start or end with a space'],
    [' alice', 'must not start or end with a space'],
    ['   ', 'must not start or end with a space'],
    ['ali\u200bce', 'must not contain invisible characters (U+200B)'],
    ['\u200b\u200c\u2060', 'must not contain invisible characters (U+200B)'],
    ['ali\u0085ce', 'must not contain control characters'],
    ['ali\u009bce', 'must not contain control characters'],
  ] as const) {
    const res = await register({ username, password: 'other-long-password' });
    t.deepEqual([res.status, res.body], [400, refused(reason)], JSON.stringify(username));
  }
  const stored = await rs.db.user.findMany({ where: { username: { in: ['alice', 'jos\u00e9'] } }, select: { username: true } });
  t.is(stored.length, 2, 'the stored name keeps what the user typed');
});

test('beyond the RFC: a name whose confusable skeleton (UTS #39) equals an existing one is refused', async (t) => {
  t.is((await register({ username: 'paypal', password: 'paypal-long-password' })).status, 200);
  for (const username of ['\u0440aypal', 'p\u0430yp\u0430l', 'P\u0391YPAL']) {
    const res = await register({ username, password: 'other-long-password' });
    t.is(res.status, 409, JSON.stringify(username));
    t.deepEqual(res.body, { error: 'entity_already_exists', reasons: ["'username' looks like an existing username; choose another"] }, JSON.stringify(username));
  }
  t.is((await register({ username: 'paypal2', password: 'paypal-long-password' })).status, 200);
});

test('body errors: not an object, malformed JSON, no body, wrong content type', async (t) => {
  const array = await register([{ username: 'a', password: 'hero-password-1' }]);
  t.is(array.status, 400);
  t.deepEqual(array.body, { error: 'request entity was unexpected type' });
  const malformed = await request(`${rs.url}/register`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"username":',
  });
  t.is(malformed.status, 400);
  t.deepEqual(malformed.body, { error: 'request entity could not be decoded' });
  const empty = await request(`${rs.url}/register`, { method: 'POST', headers: { 'content-type': 'application/json' } });
  t.is(empty.status, 400);
  t.deepEqual(empty.body, { error: 'missing required body' });
  const text = await request(`${rs.url}/register`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' });
  t.is(text.status, 415);
  t.is(typeof (text.body as { error: string }).error, 'string');
});

test('a form body works too', async (t) => {
  const res = await request(`${rs.url}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'username=form+user&password=p%26w+form+password',
  });
  t.is(res.status, 200);
  t.is((res.body as { username: string }).username, 'form user');
  const user = await rs.db.user.findUniqueOrThrow({ where: { username: 'form user' } });
  t.true(await bcrypt.compare('p&w form password', user.hashedPassword));
});

test('GET /register → 405 with Allow', async (t) => {
  const res = await request(`${rs.url}/register`);
  t.is(res.status, 405);
  t.is(res.headers.get('allow'), 'POST, OPTIONS');
  t.deepEqual(res.body, { error: 'method not allowed' });
});

test('the response never contains the password, hash or salt', async (t) => {
  const res = await register({ username: 'leak-check', password: 'leaky-password' });
  t.false(res.text.includes('leaky-password'));
  t.false(res.text.includes('$2'));
});

test('a lone surrogate in the username or password → 400 before any hashing; nothing stored', async (t) => {
  for (const body of ['{"username":"lone\\ud800","password":"hero-password-1"}', '{"username":"lone-pw","password":"hero-password-\\udfff"}']) {
    const res = await request(`${rs.url}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    t.is(res.status, 400, body);
    t.deepEqual(res.body, { error: 'request entity could not be decoded' }, body);
  }
  t.is(await rs.db.user.count({ where: { username: { startsWith: 'lone' } } }), 0);
});

test('NUL in a form username or password → 400 naming the key; NUL never reaches a query', async (t) => {
  const form = (body: string) => request(`${rs.url}/register`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body,
  });
  const username = await form('username=nul%00user&password=hero-password-1');
  t.is(username.status, 400);
  t.deepEqual(username.body, { error: 'entity validation failed', reasons: ["'username' must not contain control characters"] });
  const password = await form('username=nulpw-form&password=hero-password%00');
  t.is(password.status, 400);
  t.deepEqual(password.body, { error: 'entity validation failed', reasons: ["'password' must not contain NUL characters"] });
  const json = await register({ username: 'nul\u0000json', password: 'hero-password-1' });
  t.deepEqual(json.body, { error: 'entity validation failed', reasons: ["'username' must not contain control characters"] });
});

test('a gzip- or deflate-encoded body is decoded; another Content-Encoding → 415', async (t) => {
  const gz = await request(`${rs.url}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    body: gzipSync(JSON.stringify({ username: 'gzipped', password: 'hero-password-1' })),
  });
  t.is(gz.status, 200);
  t.is((gz.body as { username: string }).username, 'gzipped');
  const deflated = await request(`${rs.url}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'deflate' },
    body: deflateSync('username=deflated&password=hero-password-1'),
  });
  t.is(deflated.status, 200);
  const br = await request(`${rs.url}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-encoding': 'br' },
    body: JSON.stringify({ username: 'brotli', password: 'hero-password-1' }),
  });
  t.is(br.status, 415);
  t.deepEqual(br.body, { error: "unsupported content encoding 'br'" });
  t.is(await rs.db.user.count({ where: { username: 'brotli' } }), 0);
});

test('a gzip form of repeated keys (was seconds of decoding for the whole edge) → 413 at once (1 MB inflated: over AUTH_MAX_BODY_BYTES); the next request is served', async (t) => {
  const res = await request(`${rs.url}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' },
    body: gzipSync('a&'.repeat(500_000)),
  });
  t.is(res.status, 413);
  t.deepEqual(res.body, { error: 'entity length exceeds maximum' });
  const next = await register({ username: 'after-flood', password: 'hero-password-1' });
  t.is(next.status, 200);
});

test('GET /heroes with more than 1,000 query parameters → 400 JSON', async (t) => {
  const res = await request(`${rs.url}/heroes?${'a=1&'.repeat(1001)}`);
  t.is(res.status, 400);
  t.deepEqual(res.body, { error: 'too many query parameters' });
});
