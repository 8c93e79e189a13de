import test from 'ava';
import { startFakeAuthServer, type FakeAuthServer } from '../_helpers/fake-auth-server.ts';
import { request } from '../_helpers/http.ts';
import { startInProcess, type InProcessServer } from '../_helpers/in-process.ts';

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

test('GET /.well-known/oauth-protected-resource describes the hero API (RFC 9728), served by the edge itself', async (t) => {
  const before = auth.calls;
  const res = await request(`${rs.url}/.well-known/oauth-protected-resource`);
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /^application\/json/);
  t.is(res.headers.get('cache-control'), 'public, max-age=300');
  t.deepEqual(res.body, {
    resource: `${rs.url}/`,
    authorization_servers: [rs.url],
    scopes_supported: ['heroes:read', 'heroes:write'],
    bearer_methods_supported: ['header'],
    resource_name: 'Heroes API',
    resource_documentation: `${rs.url}/docs`,
  });
  t.is(auth.calls, before);
  const forwarded = await request(`${rs.url}/.well-known/oauth-authorization-server`);
  t.is((forwarded.body as { url?: string }).url, '/.well-known/oauth-authorization-server', 'the authorization server metadata is still forwarded');
});

test('the 401 of a hero route names the document; other methods get 405', async (t) => {
  const res = await request(`${rs.url}/heroes`);
  t.is(res.status, 401);
  const challenge = res.headers.get('www-authenticate') ?? '';
  const url = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
  t.is(url, `${rs.url}/.well-known/oauth-protected-resource`);
  t.is((await request(url!)).status, 200);
  t.is((await request(url!, { method: 'POST', json: {} })).status, 405);
  t.is((await request(url!, { method: 'HEAD' })).status, 200);
});

test('behind a proxy, the document and the challenge name the public URL', async (t) => {
  const proxied = await startInProcess(auth.url, { publicBaseUrl: 'https://heroes.example' });
  try {
    const doc = await request(`${proxied.url}/.well-known/oauth-protected-resource`);
    t.is((doc.body as { resource: string }).resource, 'https://heroes.example/');
    t.deepEqual((doc.body as { authorization_servers: string[] }).authorization_servers, ['https://heroes.example']);
    const res = await request(`${proxied.url}/heroes`);
    t.regex(res.headers.get('www-authenticate') ?? '', /resource_metadata="https:\/\/heroes\.example\/\.well-known\/oauth-protected-resource"/);
  } finally {
    await proxied.close();
  }
});
