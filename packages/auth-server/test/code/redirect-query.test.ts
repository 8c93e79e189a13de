import test from 'ava';
import { appendQuery } from '../../src/endpoints/code/redirect.ts';
import { addClient, addUser, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { postForm } from '../_helpers/http.ts';

// RFC 6749 3.1.2: the redirection endpoint's query component MUST be retained.
let s: TestServer;
const URIS = { spaced: 'http://127.0.0.1:9/cb?x=1&y=a%20b', odd: 'http://127.0.0.1:9/cb?flag&a=%2b&b=c+d' };

test.before(async () => {
  s = await startTestServer();
  await addClient(s.db, { id: 'spaced', secret: 's', redirectUri: URIS.spaced });
  await addClient(s.db, { id: 'odd', secret: 's', redirectUri: URIS.odd });
  await addUser(s.db, 'bob', 'hero-password-1');
});
test.after.always(() => s?.close());

for (const [id, uri] of Object.entries(URIS)) {
  test(`the registered query is kept byte for byte in the code redirect (${id})`, async (t) => {
    const res = await postForm(`${s.url}/auth/code`, { client_id: id, response_type: 'code', state: 'a b&c', username: 'bob', password: 'hero-password-1' });
    t.is(res.status, 302, res.text);
    const location = res.headers.get('location') ?? '';
    t.true(location.startsWith(`${uri}&code=`), location);
    t.regex(location, /&state=a%20b%26c&iss=http%3A%2F%2Flocalhost%3A8888$/);
  });

  test(`the registered query is kept byte for byte in an error redirect (${id})`, async (t) => {
    const res = await postForm(`${s.url}/auth/code`, { client_id: id, response_type: 'token', state: 's', username: 'bob', password: 'hero-password-1' });
    t.is(res.status, 302, res.text);
    t.true((res.headers.get('location') ?? '').startsWith(`${uri}&error=unsupported_response_type&`));
  });
}

test('appendQuery: ? when there is no query, nothing doubled after a trailing ? or &', (t) => {
  t.is(appendQuery('app:/cb', { code: 'c d' }), 'app:/cb?code=c%20d');
  t.is(appendQuery('https://a.example/cb?', { code: 'c' }), 'https://a.example/cb?code=c');
  t.is(appendQuery('https://a.example/cb?x=1&', { code: 'c' }), 'https://a.example/cb?x=1&code=c');
  t.is(appendQuery('https://a.example/cb?x=1', { code: 'c', state: undefined }), 'https://a.example/cb?x=1&code=c');
});
