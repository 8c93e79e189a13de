/**
 * A client with several redirect URIs (RFC 6749 section 3.1.2.3, RFC 9700
 * section 4.1.3): each request names one, matched character for character,
 * and the code is bound to the one it was issued for. The client is
 * registered with the real `auth` binary.
 */
import test from 'ava';
import { addUser, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic, postForm } from '../_helpers/http.ts';
import { runAuth } from '../_helpers/run-auth.ts';

let s: TestServer;
const FIRST = 'http://127.0.0.1:9/first';
const SECOND = 'https://app.example/second?keep=1';
const LOOPBACK = 'http://127.0.0.1:9/native';
const client = basic('multi', 'multi-secret');

test.before(async () => {
  s = await startTestServer();
  const added = await runAuth(['add-client', '--id', 'multi', '--secret', 'multi-secret', '--redirect-uri', FIRST, '--redirect-uri', SECOND], { databaseUrl: s.testDb.url });
  if (added.code !== 0) throw new Error(added.stderr);
  const native = await runAuth(['add-client', '--id', 'native', '--secret', 'native-secret', '--redirect-uri', 'com.example.app:/cb', '--redirect-uri', LOOPBACK], { databaseUrl: s.testDb.url });
  if (native.code !== 0) throw new Error(native.stderr);
  await addUser(s.db, 'bob', 'hero-password-1');
});
test.after.always(() => s?.close());

const form = (redirectUri?: string) => ({
  client_id: 'multi',
  ...(redirectUri === undefined ? {} : { redirect_uri: redirectUri }),
  response_type: 'code',
  state: 'st',
  username: 'bob',
  password: 'hero-password-1',
});

async function codeFor(redirectUri: string): Promise<string> {
  const res = await postForm(`${s.url}/auth/code`, form(redirectUri));
  if (res.status !== 302) throw new Error(`expected a redirect, got ${res.status}`);
  return new URL(res.headers.get('location')!).searchParams.get('code')!;
}

test('each registered redirect URI may be used, and the user goes back to the one the request named', async (t) => {
  for (const uri of [FIRST, SECOND]) {
    const res = await postForm(`${s.url}/auth/code`, form(uri));
    t.is(res.status, 302);
    const to = new URL(res.headers.get('location')!);
    t.is(`${to.origin}${to.pathname}`, uri.split('?')[0]!);
    t.is(to.searchParams.get('state'), 'st');
    if (uri === SECOND) t.is(to.searchParams.get('keep'), '1', "the URI's own query is kept");
  }
});

test('the code is exchanged with the redirect URI it was issued for, and with no other registered one', async (t) => {
  const wrong = await postForm(`${s.url}/auth/token`, { grant_type: 'authorization_code', code: await codeFor(SECOND), redirect_uri: FIRST }, { authorization: client });
  t.is(wrong.status, 400);
  t.is(wrong.body?.error, 'invalid_grant');
  const right = await postForm(`${s.url}/auth/token`, { grant_type: 'authorization_code', code: await codeFor(SECOND), redirect_uri: SECOND }, { authorization: client });
  t.is(right.status, 200, right.text);
  t.truthy(right.body?.access_token);
});

test('a redirect_uri that is not exactly a registered one → 400 page, never a redirect', async (t) => {
  const nearMisses = [
    'http://127.0.0.1:9/first/',
    'http://127.0.0.1:9/First',
    'HTTP://127.0.0.1:9/first',
    'http://127.0.0.1:9/firs%74',
    'http://127.0.0.1:9/first?x=1',
    'http://127.0.0.1:09/first',
    'https://app.example/second',
    'https://app.example/second?keep=1&evil=1',
    'https://app.example/second?keep=2',
  ];
  for (const uri of nearMisses) {
    const res = await postForm(`${s.url}/auth/code`, form(uri));
    t.is(res.status, 400, uri);
    t.is(res.headers.get('location'), null, uri);
    t.regex(res.text, /redirect_uri does not match any registered redirect URI/, uri);
  }
});

test('a request without redirect_uri must say which when the client has several → 400 page', async (t) => {
  const res = await fetch(`${s.url}/auth/code?${new URLSearchParams({ client_id: 'multi', response_type: 'code', state: 's' })}`, { redirect: 'manual' });
  t.is(res.status, 400);
  t.is(res.headers.get('location'), null);
  t.regex(await res.text(), /redirect_uri is required: this client has several registered redirect URIs/);
});

test('an error after the redirect URI is trusted goes back to the URI the request named', async (t) => {
  const res = await postForm(`${s.url}/auth/code`, { ...form(SECOND), response_type: 'token' });
  t.is(res.status, 302);
  const to = new URL(res.headers.get('location')!);
  t.is(`${to.origin}${to.pathname}`, 'https://app.example/second');
  t.is(to.searchParams.get('error'), 'unsupported_response_type');
});

test('a native app may list its private-use scheme URI beside a loopback one and use either', async (t) => {
  const res = await postForm(`${s.url}/auth/code`, { ...form(LOOPBACK), client_id: 'native' });
  t.is(res.status, 302);
  const to = new URL(res.headers.get('location')!);
  t.is(`${to.origin}${to.pathname}`, LOOPBACK);
  const exchanged = await postForm(`${s.url}/auth/token`, { grant_type: 'authorization_code', code: to.searchParams.get('code')!, redirect_uri: LOOPBACK }, { authorization: basic('native', 'native-secret') });
  t.is(exchanged.status, 200, exchanged.text);
  const custom = await postForm(`${s.url}/auth/code`, { ...form('com.example.app:/cb'), client_id: 'native' });
  t.is(custom.status, 302);
  t.regex(custom.headers.get('location')!, /^com\.example\.app:\/cb\?code=/);
});
