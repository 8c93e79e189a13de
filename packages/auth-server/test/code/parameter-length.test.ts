import test from 'ava';
import { MAX_PARAMETER_LENGTHS } from '../../src/endpoints/code/code-request.ts';
import { addClient, addUser, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { postForm } from '../_helpers/http.ts';
import { pkcePair } from '../_helpers/pkce.ts';

// A 17 KB state used to become a 17 KB Location header (the edge proxy's HPE_HEADER_OVERFLOW), after a code was minted.
let s: TestServer;
const redirectUri = 'http://127.0.0.1:9/cb';
const { challenge } = pkcePair();
const base = { client_id: 'web', redirect_uri: redirectUri, response_type: 'code', state: 'st', username: 'bob', password: 'hero-password-1' };

test.before(async () => {
  s = await startTestServer();
  await addClient(s.db, { id: 'web', secret: 'web-secret', redirectUri, allowedScopes: ['heroes:read'] });
  await addUser(s.db, 'bob', 'hero-password-1');
});
test.after.always(() => s?.close());

const TOO_LONG: Record<string, string> = {
  state: 'x'.repeat(17 * 1024),
  nonce: 'n'.repeat(1025),
  code_challenge: `${challenge}${'a'.repeat(100)}`,
  scope: `heroes:read ${'y'.repeat(2048)}`,
  redirect_uri: `${redirectUri}?${'z'.repeat(2048)}`,
  client_id: 'c'.repeat(256),
  username: 'u'.repeat(1025),
  password: 'p'.repeat(1025),
};

for (const [name, value] of Object.entries(TOO_LONG)) {
  test.serial(`POST /auth/code with an overlong ${name} → 400 invalid_request page, no code`, async (t) => {
    const before = await s.db.authorizationCode.count();
    const extra: Record<string, string> = name === 'code_challenge' ? { code_challenge_method: 'S256' } : {};
    const res = await postForm(`${s.url}/auth/code`, { ...base, ...extra, [name]: value });
    t.is(res.status, 400);
    t.is(res.headers.get('location'), null);
    t.regex(res.headers.get('content-type') ?? '', /^text\/html/);
    t.regex(res.text, new RegExp(`invalid_request</strong>: parameter ${name} is longer than \\d+ characters`));
    t.is(await s.db.authorizationCode.count(), before);
  });
}

test.serial('GET /auth/code with an overlong state → 400 invalid_request page', async (t) => {
  const query = new URLSearchParams({ client_id: 'web', response_type: 'code', state: 's'.repeat(1025) });
  const res = await fetch(`${s.url}/auth/code?${query.toString()}`, { redirect: 'manual' });
  t.is(res.status, 400);
  t.regex(await res.text(), /parameter state is longer than 1024 characters/);
});

test.serial('a state of exactly the limit is accepted and returned', async (t) => {
  const state = 's'.repeat(MAX_PARAMETER_LENGTHS.state);
  const res = await postForm(`${s.url}/auth/code`, { ...base, state });
  t.is(res.status, 302, res.text);
  t.is(new URL(res.headers.get('location') ?? '').searchParams.get('state'), state);
});
