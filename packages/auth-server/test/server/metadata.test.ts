import test from 'ava';
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { addClient, startTestServer, type TestServer } from '../_helpers/fixtures.ts';

let s: TestServer;

test.before(async () => {
  s = await startTestServer({ publicBaseUrl: 'https://heroes.example' });
  await addClient(s.db, { id: 'web', secret: 'web-secret' }); // no allowed scopes: the hero scopes
});
test.after.always(() => s?.close());

async function metadata(path: string, headers: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const response = await fetch(`${s.url}${path}`, { headers });
  return (await response.json()) as Record<string, unknown>;
}

for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
  test(`${path} describes this service truthfully`, async (t) => {
    const body = await metadata(path);
    t.is(body['issuer'], 'https://heroes.example');
    t.is(body['authorization_endpoint'], 'https://heroes.example/auth/code');
    t.is(body['token_endpoint'], 'https://heroes.example/auth/token');
    t.is(body['revocation_endpoint'], 'https://heroes.example/auth/revoke');
    t.is(body['introspection_endpoint'], 'https://heroes.example/auth/introspect');
    t.is(body['jwks_uri'], 'https://heroes.example/auth/jwks');
    t.deepEqual([...(body['grant_types_supported'] as string[])].sort(), ['authorization_code', 'client_credentials', 'password', 'refresh_token'], 'exactly the grants served');
    t.deepEqual(body['response_types_supported'], ['code']);
    t.deepEqual(body['response_modes_supported'], ['query']);
    t.deepEqual(body['code_challenge_methods_supported'], ['S256']);
    t.deepEqual(body['token_endpoint_auth_methods_supported'], ['client_secret_basic', 'client_secret_post', 'none']);
    t.is(body['authorization_response_iss_parameter_supported'], true);
    for (const absent of ['userinfo_endpoint', 'registration_endpoint', 'end_session_endpoint', 'pushed_authorization_request_endpoint', 'device_authorization_endpoint', 'dpop_signing_alg_values_supported']) {
      t.false(absent in body, absent);
    }
    t.deepEqual(body['scopes_supported'], ['heroes:read', 'heroes:write', 'openid'], 'the registered catalogue (scopes/scope-catalogue.ts)');
    // RFC 7009 2.1: public clients may revoke; RFC 7662 2.1: only authenticated clients introspect.
    t.deepEqual(body['revocation_endpoint_auth_methods_supported'], ['client_secret_basic', 'client_secret_post', 'none']);
    t.deepEqual(body['introspection_endpoint_auth_methods_supported'], ['client_secret_basic', 'client_secret_post']);
    // OpenID Connect, as /auth/code implements it (test/code/openid.test.ts).
    t.true((body['scopes_supported'] as string[]).includes('openid'));
    t.deepEqual(body['id_token_signing_alg_values_supported'], ['RS256']);
    t.deepEqual(body['subject_types_supported'], ['public']);
    t.deepEqual(body['claims_supported'], ['sub', 'iss']);
    t.is(body['claims_parameter_supported'], false);
  });
}

test('endpoints stay under the public base URL whatever address the request reached (proxy)', async (t) => {
  const body = await metadata('/.well-known/oauth-authorization-server', { 'x-forwarded-host': 'other.example', 'x-forwarded-proto': 'http' });
  t.is(body['token_endpoint'], 'https://heroes.example/auth/token');
});

test('JWKS holds the configured public key only', async (t) => {
  const body = await metadata('/auth/jwks');
  const keys = body['keys'] as Record<string, unknown>[];
  t.is(keys.length, 1);
  t.is(keys[0]?.['kty'], 'RSA');
  t.false('d' in (keys[0] ?? {}), 'no private part');
});

test('features that do not belong here answer 404', async (t) => {
  for (const path of ['/auth/internal/userinfo', '/auth/internal/registration', '/auth/internal/end-session', '/auth/internal/par', '/auth', '/me', '/reg', '/session/end', '/interaction/x', '/token', '/nothing']) {
    const response = await fetch(`${s.url}${path}`);
    t.is(response.status, 404, path);
    t.regex(response.headers.get('content-type') ?? '', /^application\/json/, path);
  }
});

test('gzip of provider responses decodes to the same JSON', async (t) => {
  const raw = await new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
    http.get(`${s.url}/.well-known/openid-configuration`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
  t.is(raw.encoding, 'gzip');
  const decoded = JSON.parse(gunzipSync(raw.body).toString('utf8')) as Record<string, unknown>;
  t.is(decoded['issuer'], 'https://heroes.example');
});
