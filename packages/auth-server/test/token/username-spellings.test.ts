import test from 'ava';
import { addClient, addUser, RESOURCE_SERVER_CLIENT, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic, introspectAsResourceServer, passwordGrant, postForm } from '../_helpers/http.ts';
import { pkcePair } from '../_helpers/pkce.ts';

// One identifier rule (RFC 8265 UsernameCaseMapped, @heroes/text-rules): every spelling of a name signs in to one account.
let s: TestServer;
let aliceId: number;
const REDIRECT_URI = 'http://127.0.0.1:9/cb';

test.before(async () => {
  s = await startTestServer();
  await addClient(s.db, { id: 'pub', redirectUri: REDIRECT_URI });
  await addClient(s.db, RESOURCE_SERVER_CLIENT);
  aliceId = await addUser(s.db, 'Alice', 'alice-long-password');
});
test.after.always(() => s?.close());

const SAME_ACCOUNT = ['Alice', 'alice', 'ALICE', '\uff41\uff4c\uff49\uff43\uff45'];
const NO_ACCOUNT = ['alice ', ' alice', 'ali\u200bce', 'ali\u0085ce', '\u0430lice'];

test('the password grant: Alice, alice, ALICE and fullwidth ａｌｉｃｅ reach the same account; look-alikes reach none', async (t) => {
  for (const username of SAME_ACCOUNT) {
    const res = await passwordGrant(s.url, basic('pub', ''), { username, password: 'alice-long-password' });
    t.is(res.status, 200, `${JSON.stringify(username)}: ${res.text}`);
    const introspection = await introspectAsResourceServer(s.url, String(res.body['access_token']));
    t.is(introspection.body['sub'], String(aliceId), JSON.stringify(username));
    t.is(introspection.body['username'], 'Alice', 'the stored name keeps what the user typed');
  }
  for (const username of NO_ACCOUNT) {
    const res = await passwordGrant(s.url, basic('pub', ''), { username, password: 'alice-long-password' });
    t.deepEqual([res.status, res.body['error']], [400, 'invalid_grant'], JSON.stringify(username));
  }
});

test('the login form of /auth/code: every spelling of the name signs in to the same account', async (t) => {
  for (const username of SAME_ACCOUNT) {
    const { verifier, challenge } = pkcePair();
    const res = await postForm(`${s.url}/auth/code`, {
      client_id: 'pub', response_type: 'code', state: 'st', code_challenge: challenge, code_challenge_method: 'S256', username, password: 'alice-long-password',
    });
    t.is(res.status, 302, `${JSON.stringify(username)}: ${res.text.slice(0, 200)}`);
    const code = new URL(res.headers.get('location') ?? 'about:blank').searchParams.get('code') ?? '';
    const token = await postForm(`${s.url}/auth/token`, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier, client_id: 'pub' });
    t.is(token.status, 200, token.text);
    t.is((await introspectAsResourceServer(s.url, String(token.body['access_token']))).body['sub'], String(aliceId));
  }
  const { challenge } = pkcePair();
  const wrong = await postForm(`${s.url}/auth/code`, {
    client_id: 'pub', response_type: 'code', state: 'st', code_challenge: challenge, code_challenge_method: 'S256', username: 'alice ', password: 'alice-long-password',
  });
  t.is(wrong.status, 200, 'the form again');
  t.regex(wrong.text, /Invalid username or password/);
});
