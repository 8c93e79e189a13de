import test from 'ava';
import { waitFor } from '@heroes/test-kit';
import { addClient, addUser, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic, postForm } from '../_helpers/http.ts';
import { pkcePair } from '../_helpers/pkce.ts';

let s: TestServer;
const redirectUri = 'http://127.0.0.1:9/cb';

test.before(async () => {
  s = await startTestServer();
  await addClient(s.db, { id: 'web', secret: 'web-secret', redirectUri, allowedScopes: ['heroes:read', 'heroes:write'] });
  await addClient(s.db, { id: 'spa', redirectUri: 'http://127.0.0.1:9/spa?keep=1' });
  await addClient(s.db, { id: 'noredirect', secret: 'x' });
  await addUser(s.db, 'bob', 'hero-password-1');
});
test.after.always(() => s?.close());

function codeUrl(params: Record<string, string>): string {
  return `${s.url}/auth/code?${new URLSearchParams(params).toString()}`;
}

async function authorize(form: Record<string, string>) {
  return postForm(`${s.url}/auth/code`, form);
}

function location(res: { headers: Headers }): URL {
  return new URL(res.headers.get('location') ?? 'about:blank');
}

const webForm = { client_id: 'web', redirect_uri: redirectUri, response_type: 'code', state: 'st8', username: 'bob', password: 'hero-password-1' };

async function exchange(code: string, authorization: string | undefined, extra: Record<string, string> = {}) {
  return postForm(`${s.url}/auth/token`, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, ...extra }, authorization ? { authorization } : {});
}

test('GET /auth/code answers an accessible HTML login form carrying the parameters', async (t) => {
  const response = await fetch(codeUrl({ client_id: 'web', redirect_uri: redirectUri, response_type: 'code', state: 'a"<b>', scope: 'heroes:read' }));
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), 'text/html; charset=utf-8');
  t.is(response.headers.get('cache-control'), 'no-store');
  t.regex(response.headers.get('content-security-policy') ?? '', /default-src 'none'/);
  const html = await response.text();
  t.regex(html, /<html lang="en">/);
  t.regex(html, /<label for="username">/);
  t.regex(html, /<input type="password" id="password" name="password" autocomplete="current-password" required>/);
  t.regex(html, /name="state" value="a&#34;&#60;b&#62;"/, 'values are escaped');
  t.regex(html, /name="scope" value="heroes:read"/);
  t.notRegex(html, /<script|https?:\/\/[^"]*\.(css|js)/, 'no scripts, no external assets');
});

test('GET with an unknown client or an unregistered redirect URI → 400 page, no redirect', async (t) => {
  const cases: Record<string, string>[] = [
    { client_id: 'ghost', response_type: 'code', state: 's' },
    { client_id: 'web', redirect_uri: 'http://evil.example/cb', response_type: 'code', state: 's' },
    { client_id: 'noredirect', response_type: 'code', state: 's' },
    { response_type: 'code', state: 's' },
  ];
  for (const params of cases) {
    const response = await fetch(codeUrl(params), { redirect: 'manual' });
    t.is(response.status, 400, JSON.stringify(params));
    t.is(response.headers.get('location'), null);
    t.regex(response.headers.get('content-type') ?? '', /^text\/html/);
  }
});

test('POST with good credentials → 302 to redirect_uri with code, state and iss', async (t) => {
  const res = await authorize(webForm);
  t.is(res.status, 302);
  const to = location(res);
  t.is(`${to.origin}${to.pathname}`, redirectUri);
  t.regex(to.searchParams.get('code') ?? '', /^[A-Za-z0-9_-]{43,}$/);
  t.is(to.searchParams.get('state'), 'st8');
  t.is(to.searchParams.get('iss'), 'http://localhost:8888');
  t.is(res.headers.get('cache-control'), 'no-store');
});

test('the code is exchanged at /auth/token for a 1 h token and a refresh token', async (t) => {
  const code = location(await authorize(webForm)).searchParams.get('code') ?? '';
  const res = await exchange(code, basic('web', 'web-secret'));
  t.is(res.status, 200, res.text);
  t.is(res.body['token_type'], 'bearer');
  t.true((res.body['expires_in'] as number) <= 3600 && (res.body['expires_in'] as number) > 3590);
  t.truthy(res.body['refresh_token']);
  t.is(res.body['scope'], 'heroes:read heroes:write');
  t.is(res.headers.get('pragma'), 'no-cache');
});

const exchangeWithout = (code: string, extra: Record<string, string> = {}) =>
  postForm(`${s.url}/auth/token`, { grant_type: 'authorization_code', code, ...extra }, { authorization: basic('web', 'web-secret') });

test('the code exchange works without redirect_uri when the authorization request had none (single registered URI)', async (t) => {
  const { redirect_uri: _omitted, ...withoutUri } = webForm;
  const omitted = location(await authorize(withoutUri)).searchParams.get('code') ?? '';
  const res = await exchangeWithout(omitted);
  t.is(res.status, 200, res.text);
  const sentLater = location(await authorize(withoutUri)).searchParams.get('code') ?? '';
  t.is((await exchange(sentLater, basic('web', 'web-secret'))).status, 200, 'the registered URI may still be sent');
});

// RFC 6749 4.1.3: redirect_uri is REQUIRED at the token endpoint if it was in the authorization request.
test('the code exchange needs redirect_uri when the authorization request included it → invalid_grant, code not spent', async (t) => {
  const code = location(await authorize(webForm)).searchParams.get('code') ?? '';
  for (const extra of [{}, { redirect_uri: '' }] as Record<string, string>[]) {
    const res = await exchangeWithout(code, extra);
    t.is(res.status, 400, res.text);
    t.is(res.body['error'], 'invalid_grant');
  }
  const retried = await exchange(code, basic('web', 'web-secret'));
  t.is(retried.status, 200, `the refused exchange did not consume the code: ${retried.text}`);
});

test('without redirect_uri, client authentication is still checked first', async (t) => {
  const code = location(await authorize(webForm)).searchParams.get('code') ?? '';
  const res = await postForm(`${s.url}/auth/token`, { grant_type: 'authorization_code', code }, { authorization: basic('web', 'wrong') });
  t.is(res.status, 401);
  t.is(res.body['error'], 'invalid_client');
});

test('a replayed code → invalid_grant, and the tokens issued from it are revoked', async (t) => {
  const code = location(await authorize(webForm)).searchParams.get('code') ?? '';
  const first = await exchange(code, basic('web', 'web-secret'));
  t.is(first.status, 200);
  const replay = await exchange(code, basic('web', 'web-secret'));
  t.is(replay.status, 400);
  t.is(replay.body['error'], 'invalid_grant');
  const introspected = await postForm(`${s.url}/auth/introspect`, { token: String(first.body['access_token']) }, { authorization: basic('web', 'web-secret') });
  t.deepEqual(introspected.body, { active: false });
  const refreshed = await postForm(`${s.url}/auth/token`, { grant_type: 'refresh_token', refresh_token: String(first.body['refresh_token']) }, { authorization: basic('web', 'web-secret') });
  t.is(refreshed.body['error'], 'invalid_grant');
});

test('the code is bound to its client and redirect URI', async (t) => {
  await addClient(s.db, { id: 'web2', secret: 'web2-secret', redirectUri });
  const code = location(await authorize(webForm)).searchParams.get('code') ?? '';
  const otherClient = await exchange(code, basic('web2', 'web2-secret'));
  t.is(otherClient.body['error'], 'invalid_grant');
  const code2 = location(await authorize(webForm)).searchParams.get('code') ?? '';
  const otherUri = await exchange(code2, basic('web', 'web-secret'), { redirect_uri: 'http://127.0.0.1:9/other' });
  t.is(otherUri.body['error'], 'invalid_grant');
});

test('wrong credentials → the form again with an error message, no code', async (t) => {
  const res = await authorize({ ...webForm, password: 'nope' });
  t.is(res.status, 200);
  t.is(res.headers.get('location'), null);
  t.regex(res.text, /role="alert"[^>]*>Invalid username or password\./);
  t.regex(res.text, /name="username"[^>]*value="bob"/);
  t.notRegex(res.text, /value="nope"/, 'the password is never echoed');
  const unknown = await authorize({ ...webForm, username: 'mallory' });
  t.regex(unknown.text, /Invalid username or password\./);
});

test('POST with a bad client or redirect URI → 400 page, never a redirect', async (t) => {
  for (const form of [{ ...webForm, client_id: 'ghost' }, { ...webForm, redirect_uri: 'http://evil.example/cb' }]) {
    const res = await authorize(form);
    t.is(res.status, 400);
    t.is(res.headers.get('location'), null);
  }
});

test('POST needs a form body (415 otherwise)', async (t) => {
  const response = await fetch(`${s.url}/auth/code`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(webForm) });
  t.is(response.status, 415);
});

test('request errors after the redirect URI is trusted are redirected back', async (t) => {
  const cases: [Record<string, string>, string][] = [
    [{ ...webForm, response_type: 'token' }, 'unsupported_response_type'],
    [{ ...webForm, response_type: 'code token' }, 'unsupported_response_type'],
    [{ ...webForm, state: '' }, 'invalid_request'],
    [{ ...webForm, scope: 'admin' }, 'invalid_scope'],
    [{ ...webForm, code_challenge: 'short', code_challenge_method: 'S256' }, 'invalid_request'],
    [{ ...webForm, code_challenge: pkcePair().challenge, code_challenge_method: 'plain' }, 'invalid_request'],
  ];
  for (const [form, error] of cases) {
    const res = await authorize(form);
    t.is(res.status, 302, JSON.stringify(form));
    const to = location(res);
    t.is(to.searchParams.get('error'), error);
    t.is(to.searchParams.get('code'), null);
    t.is(to.searchParams.get('iss'), 'http://localhost:8888');
  }
});

test('PKCE is required for public clients', async (t) => {
  const res = await authorize({ client_id: 'spa', response_type: 'code', state: 's', username: 'bob', password: 'hero-password-1' });
  t.is(res.status, 302);
  const to = location(res);
  t.is(to.searchParams.get('error'), 'invalid_request');
  t.regex(to.searchParams.get('error_description') ?? '', /PKCE/);
  t.is(to.searchParams.get('keep'), '1', 'the registered query is kept');
});

test('a public client exchanges its code with the PKCE verifier and Basic base64(id:)', async (t) => {
  const spaRedirect = 'http://127.0.0.1:9/spa?keep=1';
  const codeFor = async (challenge: string) =>
    location(await authorize({ client_id: 'spa', response_type: 'code', state: 's', code_challenge: challenge, code_challenge_method: 'S256', username: 'bob', password: 'hero-password-1' })).searchParams.get('code') ?? '';
  const exchangeSpa = (code: string, extra: Record<string, string>) =>
    postForm(`${s.url}/auth/token`, { grant_type: 'authorization_code', code, redirect_uri: spaRedirect, ...extra }, { authorization: basic('spa', '') });

  const wrongPair = pkcePair();
  const wrong = await exchangeSpa(await codeFor(wrongPair.challenge), { code_verifier: pkcePair().verifier });
  t.is(wrong.body['error'], 'invalid_grant', 'wrong verifier');

  const missing = await exchangeSpa(await codeFor(pkcePair().challenge), {});
  t.is(missing.status, 400, 'missing verifier');

  const pair = pkcePair();
  const ok = await exchangeSpa(await codeFor(pair.challenge), { code_verifier: pair.verifier });
  t.is(ok.status, 200, ok.text);
  t.is(ok.body['token_type'], 'bearer');
  t.false('refresh_token' in ok.body, 'no refresh token without a secret');
});

test('an expired code → invalid_grant', async (t) => {
  const short = await startTestServer({ authCodeTtl: 1 });
  try {
    await addClient(short.db, { id: 'web', secret: 'web-secret', redirectUri });
    await addUser(short.db, 'bob', 'hero-password-1');
    const res = await postForm(`${short.url}/auth/code`, webForm);
    const code = location(res).searchParams.get('code') ?? '';
    // exp = iat + 1 s, in whole seconds, with iat taken before the answer: once the next second has begun, it is past.
    const answeredSecond = Math.floor(Date.now() / 1000);
    await waitFor(() => Math.floor(Date.now() / 1000) > answeredSecond, { intervalMs: 50 });
    const exchanged = await postForm(`${short.url}/auth/token`, { grant_type: 'authorization_code', code, redirect_uri: redirectUri }, { authorization: basic('web', 'web-secret') });
    t.is(exchanged.body['error'], 'invalid_grant');
  } finally {
    await short.close();
  }
});

test('other methods on /auth/code → 405 with Allow', async (t) => {
  const response = await fetch(`${s.url}/auth/code`, { method: 'PUT' });
  t.is(response.status, 405);
  t.regex(response.headers.get('allow') ?? '', /GET/);
});

test('the login form posts to the root-relative /auth/code, also when GET had a trailing slash', async (t) => {
  const params = new URLSearchParams({ client_id: 'web', redirect_uri: redirectUri, response_type: 'code', state: 'slash' }).toString();
  for (const path of ['/auth/code', '/auth/code/']) {
    const response = await fetch(`${s.url}${path}?${params}`);
    t.is(response.status, 200, path);
    const html = await response.text();
    t.regex(html, /<form method="POST" action="\/auth\/code"/, path);
    // Resolve the action as a browser would, and submit there.
    const action = new URL(/<form method="POST" action="([^"]+)"/.exec(html)?.[1] ?? '', `${s.url}${path}`);
    t.is(action.pathname, '/auth/code');
    const res = await postForm(action.href, webForm);
    t.is(res.status, 302, path);
    t.truthy(location(res).searchParams.get('code'));
  }
  const slashPost = await postForm(`${s.url}/auth/code/`, webForm);
  t.is(slashPost.status, 302, 'POST /auth/code/ is the same resource');
});

test('a missing response_type → invalid_request (RFC 6749 4.1.2.1), redirected back on GET and POST', async (t) => {
  const { response_type: _omitted, ...withoutType } = webForm;
  for (const form of [withoutType, { ...webForm, response_type: '' }]) {
    const posted = await authorize(form);
    t.is(posted.status, 302);
    t.is(location(posted).searchParams.get('error'), 'invalid_request');
    t.regex(location(posted).searchParams.get('error_description') ?? '', /response_type/);
    t.is(location(posted).searchParams.get('code'), null);
    t.is(location(posted).searchParams.get('state'), 'st8');
    const { username: _u, password: _p, ...query } = form;
    const got = await fetch(codeUrl(query), { redirect: 'manual' });
    t.is(got.status, 302);
    t.is(location(got).searchParams.get('error'), 'invalid_request');
  }
});

test('exchanging another client\'s code → invalid_grant; a client that cannot use the code grant → unauthorized_client', async (t) => {
  const code = location(await authorize(webForm)).searchParams.get('code') ?? '';
  // A client with the authorization_code grant (it has a redirect URI), but the code is web's.
  await addClient(s.db, { id: 'thief', secret: 'thief-secret', redirectUri });
  const other = await exchange(code, basic('thief', 'thief-secret'));
  t.is(other.status, 400);
  t.is(other.body['error'], 'invalid_grant');
  // A client without a redirect URI has no authorization_code grant at all (RFC 6749 5.2).
  const noGrant = await exchange(code, basic('noredirect', 'x'));
  t.is(noGrant.status, 400);
  t.is(noGrant.body['error'], 'unauthorized_client');
  t.false(JSON.stringify(noGrant.body).includes('invalid_request'));
  // Neither attempt spent the code.
  t.is((await exchange(code, basic('web', 'web-secret'))).status, 200);
});
