import test from 'ava';
import { addClient, addUser, RESOURCE_SERVER_CLIENT, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic, introspectAsResourceServer, passwordGrant, postForm } from '../_helpers/http.ts';
import { pkcePair } from '../_helpers/pkce.ts';

let s: TestServer;
const heroApi = 'http://localhost:8888/';
const redirectUri = 'http://127.0.0.1:9/cb';
const user = { username: 'bob', password: 'hero-password-1' };
const web = basic('web', 'web-secret');

test.before(async () => {
  s = await startTestServer({ publicBaseUrl: 'http://localhost:8888' });
  await addClient(s.db, RESOURCE_SERVER_CLIENT);
  await addClient(s.db, { id: 'web', secret: 'web-secret', redirectUri });
  await addClient(s.db, { id: 'machine', secret: 'machine-secret', grantTypes: ['client_credentials'] });
  await addUser(s.db, user.username, user.password);
});
test.after.always(() => s?.close());

const token = (authorization: string, form: Record<string, string | string[]>) => {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) for (const one of [value].flat()) body.append(name, one);
  return fetch(`${s.url}/auth/token`, { method: 'POST', headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' }, body })
    .then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> }));
};

async function audienceOf(accessToken: unknown): Promise<unknown> {
  const info = await introspectAsResourceServer(s.url, String(accessToken));
  t_active(info.body);
  return info.body['aud'];
}
function t_active(body: Record<string, unknown>) {
  if (body['active'] !== true) throw new Error(`inactive: ${JSON.stringify(body)}`);
}

test('every grant, with or without resource, gives a token whose aud is the hero API', async (t) => {
  for (const resource of [undefined, heroApi, 'http://localhost:8888']) {
    const extra: Record<string, string> = resource === undefined ? {} : { resource };
    const password = await token(web, { grant_type: 'password', ...user, ...extra });
    t.is(password.status, 200, JSON.stringify(password.body));
    t.is(await audienceOf(password.body['access_token']), heroApi);
    const refreshed = await token(web, { grant_type: 'refresh_token', refresh_token: String(password.body['refresh_token']), ...extra });
    t.is(refreshed.status, 200, JSON.stringify(refreshed.body));
    t.is(await audienceOf(refreshed.body['access_token']), heroApi);
    const machine = await token(basic('machine', 'machine-secret'), { grant_type: 'client_credentials', ...extra });
    t.is(machine.status, 200);
    t.is(await audienceOf(machine.body['access_token']), heroApi);
  }
});

test('an unknown resource is invalid_target on every grant, before the password is checked', async (t) => {
  for (const resource of ['https://other.example/', 'http://localhost:8888/#frag', 'not-a-uri', 'http://localhost:8888/heroes', ['http://localhost:8888/', 'https://other.example/']]) {
    for (const [authorization, form] of [
      [web, { grant_type: 'password', username: 'bob', password: 'wrong' }],
      [web, { grant_type: 'refresh_token', refresh_token: 'x'.repeat(43) }],
      [basic('machine', 'machine-secret'), { grant_type: 'client_credentials' }],
      [web, { grant_type: 'authorization_code', code: 'x'.repeat(43), redirect_uri: redirectUri }],
    ] as const) {
      const res = await token(authorization, { ...form, resource });
      t.is(res.status, 400, `${JSON.stringify(resource)} ${form.grant_type}`);
      t.is(res.body['error'], 'invalid_target');
    }
  }
});

test('/auth/code takes resource: the hero API is accepted, another is redirected back as invalid_target', async (t) => {
  const { challenge, verifier } = pkcePair();
  const base = { client_id: 'web', redirect_uri: redirectUri, response_type: 'code', state: 's', code_challenge: challenge, code_challenge_method: 'S256', ...user };
  const refused = await postForm(`${s.url}/auth/code`, { ...base, resource: 'https://other.example/' });
  t.is(refused.status, 302);
  const location = new URL(refused.headers.get('location')!);
  t.is(location.searchParams.get('error'), 'invalid_target');
  t.is(location.searchParams.get('state'), 's');
  t.is(location.searchParams.get('code'), null);

  const page = await fetch(`${s.url}/auth/code?${new URLSearchParams({ client_id: 'web', redirect_uri: redirectUri, response_type: 'code', state: 's', resource: heroApi })}`);
  t.regex(await page.text(), /name="resource" value="http:\/\/localhost:8888\/"/, 'the login form carries it');

  const granted = await postForm(`${s.url}/auth/code`, { ...base, resource: heroApi });
  t.is(granted.status, 302);
  const code = new URL(granted.headers.get('location')!).searchParams.get('code')!;
  const exchanged = await token(web, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier, resource: heroApi });
  t.is(exchanged.status, 200, JSON.stringify(exchanged.body));
  t.is(await audienceOf(exchanged.body['access_token']), heroApi);
});

test('a token stored before tokens carried an audience is read as one for the hero API, on both introspection paths', async (t) => {
  const issued = await passwordGrant(s.url, web, user);
  const accessToken = String(issued.body['access_token']);
  await s.db.$executeRawUnsafe(`UPDATE access_tokens SET payload = payload - 'aud' WHERE client_id = 'web'`);
  const first = await introspectAsResourceServer(s.url, accessToken);
  const second = await introspectAsResourceServer(s.url, accessToken);
  t.is(first.body['aud'], heroApi);
  t.deepEqual(second.body, first.body, 'the fast path (secret now remembered) answers the same');
});
