/**
 * Codes and refresh tokens are single-use, atomically (RFC 6749 sections 4.1.2, 10.5; RFC 9700 sections 2.2.2,
 * 4.14.2): of parallel exchanges of one code exactly one 200 and the grant revoked; refresh tokens rotate and a
 * reused one revokes the grant; of parallel refreshes at most one 200, the grant ends revoked.
 */
import test from 'ava';
import { addClient, addUser, startTestServer, RESOURCE_SERVER_CLIENT, type TestServer } from '../_helpers/fixtures.ts';
import { basic, introspectAsResourceServer, passwordGrant, postForm, type JsonResponse } from '../_helpers/http.ts';

let s: TestServer;
const redirectUri = 'http://127.0.0.1:9/cb';
const client = basic('app', 'app-secret');
const PARALLEL = 4;

test.before(async () => {
  s = await startTestServer();
  await addClient(s.db, { id: 'app', secret: 'app-secret', redirectUri });
  await addClient(s.db, RESOURCE_SERVER_CLIENT);
  await addUser(s.db, 'bob', 'hero-password-1');
});
test.after.always(() => s?.close());

const introspect = async (token: unknown) =>
  (await introspectAsResourceServer(s.url, String(token))).body['active'];
const refresh = (refreshToken: unknown) =>
  postForm(`${s.url}/auth/token`, { grant_type: 'refresh_token', refresh_token: String(refreshToken) }, { authorization: client });

async function newCode(): Promise<string> {
  const res = await postForm(`${s.url}/auth/code`, { client_id: 'app', response_type: 'code', state: 's', username: 'bob', password: 'hero-password-1' });
  const code = new URL(res.headers.get('location') ?? 'about:blank').searchParams.get('code');
  if (res.status !== 302 || !code) throw new Error(`no code: ${res.status} ${res.text}`);
  return code;
}

function winnersAndLosers(answers: JsonResponse[]) {
  return { winners: answers.filter((res) => res.status === 200), losers: answers.filter((res) => res.status !== 200) };
}

test('parallel exchanges of one code: one 200, the others invalid_grant, and the grant is revoked', async (t) => {
  const code = await newCode();
  const answers = await Promise.all(
    Array.from({ length: PARALLEL }, () => postForm(`${s.url}/auth/token`, { grant_type: 'authorization_code', code, redirect_uri: redirectUri }, { authorization: client })),
  );
  const { winners, losers } = winnersAndLosers(answers);
  t.is(winners.length, 1, answers.map((res) => `${res.status} ${res.text}`).join('\n'));
  t.is(losers.length, PARALLEL - 1);
  for (const loser of losers) {
    t.is(loser.status, 400);
    t.is(loser.body['error'], 'invalid_grant');
  }
  const [winner] = winners;
  t.false(await introspect(winner?.body['access_token']), 'the race revoked the grant: the winner\'s access token is dead');
  t.is((await refresh(winner?.body['refresh_token'])).body['error'], 'invalid_grant');
});

test('a code exchanged twice in a row: the second is invalid_grant and revokes the first one\'s tokens', async (t) => {
  const code = await newCode();
  const exchange = () => postForm(`${s.url}/auth/token`, { grant_type: 'authorization_code', code, redirect_uri: redirectUri }, { authorization: client });
  const first = await exchange();
  t.is(first.status, 200, first.text);
  t.true(await introspect(first.body['access_token']));
  const second = await exchange();
  t.is(second.body['error'], 'invalid_grant');
  t.false(await introspect(first.body['access_token']));
});

test('refresh tokens rotate on every use; the old access token ends', async (t) => {
  const issued = await passwordGrant(s.url, client, { username: 'bob', password: 'hero-password-1' });
  const first = await refresh(issued.body['refresh_token']);
  t.is(first.status, 200, first.text);
  t.not(first.body['refresh_token'], issued.body['refresh_token']);
  t.false(await introspect(issued.body['access_token']), 'a refresh ends the previous access token');
  const second = await refresh(first.body['refresh_token']);
  t.is(second.status, 200, second.text);
  t.not(second.body['refresh_token'], first.body['refresh_token']);
  t.true(await introspect(second.body['access_token']));
});

test('a reused refresh token is invalid_grant and revokes the whole grant', async (t) => {
  const issued = await passwordGrant(s.url, client, { username: 'bob', password: 'hero-password-1' });
  const rotated = await refresh(issued.body['refresh_token']);
  t.is(rotated.status, 200, rotated.text);
  const reused = await refresh(issued.body['refresh_token']);
  t.is(reused.status, 400);
  t.is(reused.body['error'], 'invalid_grant');
  t.false(await introspect(rotated.body['access_token']), 'the access token of the rotated chain is dead');
  t.is((await refresh(rotated.body['refresh_token'])).body['error'], 'invalid_grant', 'and so is its refresh token');
});

test('parallel refreshes with one refresh token: at most one 200, the others invalid_grant, and the grant is revoked', async (t) => {
  const issued = await passwordGrant(s.url, client, { username: 'bob', password: 'hero-password-1' });
  const answers = await Promise.all(Array.from({ length: PARALLEL }, () => refresh(issued.body['refresh_token'])));
  const { winners, losers } = winnersAndLosers(answers);
  t.true(winners.length <= 1, answers.map((res) => `${res.status} ${res.text}`).join('\n'));
  t.true(losers.length >= PARALLEL - 1);
  for (const loser of losers) t.is(loser.body['error'], 'invalid_grant', loser.text);
  for (const winner of winners) {
    t.false(await introspect(winner.body['access_token']));
    t.is((await refresh(winner.body['refresh_token'])).body['error'], 'invalid_grant');
  }
});
