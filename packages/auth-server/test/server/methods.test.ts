import test from 'ava';
import { startTestServer, type TestServer } from '../_helpers/fixtures.ts';

let s: TestServer;

test.before(async () => {
  s = await startTestServer();
});
test.after.always(() => s?.close());

// RFC 9110 15.5.6: a method the target does not support → 405 with Allow.
for (const path of ['/auth/token', '/auth/revoke', '/auth/introspect']) {
  for (const method of ['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH']) {
    test(`${method} ${path} → 405, Allow: POST, JSON error`, async (t) => {
      const response = await fetch(`${s.url}${path}`, { method });
      t.is(response.status, 405);
      t.is(response.headers.get('allow'), 'POST');
      if (method !== 'HEAD') {
        t.regex(response.headers.get('content-type') ?? '', /^application\/json/);
        t.deepEqual(await response.json(), { error: 'method not allowed' });
      }
    });
  }
}

for (const path of ['/auth/jwks', '/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
  test(`POST and DELETE ${path} → 405, Allow: GET, HEAD; GET and HEAD still 200`, async (t) => {
    for (const method of ['POST', 'DELETE']) {
      const response = await fetch(`${s.url}${path}`, { method });
      t.is(response.status, 405, method);
      t.is(response.headers.get('allow'), 'GET, HEAD');
    }
    for (const method of ['GET', 'HEAD']) t.is((await fetch(`${s.url}${path}`, { method })).status, 200, method);
  });
}

test('a CORS preflight is still answered by the library', async (t) => {
  for (const path of ['/auth/token', '/auth/revoke', '/auth/introspect']) {
    const response = await fetch(`${s.url}${path}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://spa.example', 'access-control-request-method': 'POST' },
    });
    t.is(response.status, 204, path);
    t.is(response.headers.get('access-control-allow-origin'), 'https://spa.example', path);
    t.regex(response.headers.get('access-control-allow-methods') ?? '', /POST/, path);
  }
});

test('a plain OPTIONS (no preflight) → 204 with Allow', async (t) => {
  const token = await fetch(`${s.url}/auth/token`, { method: 'OPTIONS' });
  t.is(token.status, 204);
  t.is(token.headers.get('allow'), 'POST');
  const jwks = await fetch(`${s.url}/auth/jwks`, { method: 'OPTIONS' });
  t.is(jwks.status, 204);
  t.is(jwks.headers.get('allow'), 'GET, HEAD');
});

test('unknown paths still answer 404', async (t) => {
  t.is((await fetch(`${s.url}/auth/tokens`, { method: 'PUT' })).status, 404);
});
