/**
 * GET /openapi.json (docs/heroes-api.md): a valid OpenAPI 3.1 document that
 * describes every route of both servers, and every documented operation's
 * real answers (through the edge, both servers running as processes) match
 * their documented status, Content-Type and body schema.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import bcrypt from 'bcrypt';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { PrismaClient } from '@heroes/db';
import { repoRoot } from '@heroes/test-kit';
import { addClient, basic, passwordToken } from '@heroes/test-kit';
import { OpenApiContract } from '@heroes/test-kit';
import { startProcessStack, type ChildServer, type ProcessStack } from '../_helpers/processes.ts';

let stack: ProcessStack;
let db: PrismaClient;
let edge: ChildServer;
let doc: Record<string, unknown>;
const app = basic('doc-app', 'doc-secret');

test.before(async () => {
  stack = await startProcessStack();
  ({ db, edge } = stack);
  await addClient(db, { id: 'doc-app', secret: 'doc-secret', redirectUri: 'http://127.0.0.1:1/cb' });
  await addClient(db, { id: 'doc-reader', secret: 'reader-secret', allowedScopes: ['heroes:read'] });
  const res = await fetch(`${edge.url}/openapi.json`);
  doc = (await res.json()) as Record<string, unknown>;
});
test.after.always(async () => {
  await stack?.stop();
});

test('the document is valid OpenAPI 3.1', async (t) => {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(doc));
  t.true(result.valid, JSON.stringify(result.errors, null, 2));
  t.is(validator.version, '3.1');
  // The check can fail: a document missing a required member is refused.
  const broken = await new Validator().validate({ ...structuredClone(doc), info: { title: 'no version' } });
  t.false(broken.valid);
});

test('every operation answers as documented', async (t) => {
  const contract = new OpenApiContract(doc as never);
  const call = async (method: string, path: string, url: string, init: RequestInit = {}) => {
    const res = await fetch(`${edge.url}${url}`, { method, redirect: 'manual', ...init });
    await contract.check(method, path, res);
    return res;
  };
  const json = (body: unknown, headers: Record<string, string> = {}) => ({ headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const form = (fields: Record<string, string>, authorization?: string) => ({
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(authorization ? { authorization } : {}) },
    body: new URLSearchParams(fields).toString(),
  });

  // Users and tokens.
  await call('POST', '/register', '/register', json({ username: 'doc', password: 'doc password' }));
  await call('POST', '/register', '/register', json({ username: 'doc', password: 'doc password again' }));
  await call('POST', '/register', '/register', json({ username: 'nobody' }));
  const tokenRes = await fetch(`${edge.url}/auth/token`, { method: 'POST', ...form({ grant_type: 'password', username: 'doc', password: 'doc password' }, app) });
  const tokens = (await tokenRes.clone().json()) as { access_token: string; refresh_token: string };
  await contract.check('POST', '/auth/token', tokenRes);
  await call('POST', '/auth/token', '/auth/token', form({ grant_type: 'password', username: 'doc', password: 'wrong' }, app));
  await call('POST', '/auth/token', '/auth/token', form({ grant_type: 'password', username: 'doc', password: 'doc password' }, basic('doc-app', 'wrong')));
  const bearer = { authorization: `Bearer ${tokens.access_token}` };

  // Heroes.
  const created = await call('POST', '/heroes', '/heroes', json({ name: 'Doc Hero' }, bearer));
  const hero = (await fetch(`${edge.url}/heroes?name=doc`, { headers: bearer }).then((r) => r.json()) as Array<{ id: number }>)[0]!;
  t.is(created.status, 200);
  await call('POST', '/heroes', '/heroes', json({ name: 'Doc Hero' }, bearer));
  await call('POST', '/heroes', '/heroes', json({ id: 5, name: 'With id' }, bearer));
  await call('GET', '/heroes', '/heroes?limit=1', { headers: bearer });
  await call('GET', '/heroes', '/heroes');
  await call('GET', '/heroes', '/heroes', { headers: { authorization: 'Bearer nope' } });
  await call('GET', '/heroes', '/heroes?limit=0', { headers: bearer });
  await call('PUT', '/heroes', '/heroes', json({ id: hero.id, name: 'Doc Hero 2' }, bearer));
  await call('GET', '/heroes/{id}', `/heroes/${hero.id}`, { headers: bearer });
  t.is((await call('GET', '/heroes/{id}', '/heroes/abc', { headers: bearer })).status, 400);
  t.is((await call('DELETE', '/heroes/{id}', '/heroes/x1', { headers: bearer })).status, 400);
  t.is((await call('PUT', '/heroes/{id}', `/heroes/${hero.id}`, json({ name: 'Doc Hero 3', power: 'flight' }, bearer))).status, 400);
  await call('GET', '/heroes/{id}', '/heroes/999999', { headers: bearer });
  await call('PUT', '/heroes/{id}', `/heroes/${hero.id}`, json({ name: 'Doc Hero 3' }, bearer));
  await call('PUT', '/heroes/{id}', `/heroes/${hero.id}`, json({ name: '' }, bearer));
  const readerToken = await passwordToken(edge.url, { id: 'doc-reader', secret: 'reader-secret' }, 'doc', 'doc password', { scope: 'heroes:read' });
  await call('DELETE', '/heroes/{id}', `/heroes/${hero.id}`, { headers: { authorization: `Bearer ${readerToken.access_token}` } });
  await call('DELETE', '/heroes/{id}', `/heroes/${hero.id}`, { headers: bearer });
  await call('DELETE', '/heroes/{id}', `/heroes/${hero.id}`, { headers: bearer });

  // The code flow.
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const codeQuery = new URLSearchParams({ client_id: 'doc-app', response_type: 'code', state: 's1', code_challenge: challenge, code_challenge_method: 'S256' });
  await call('GET', '/auth/code', `/auth/code?${codeQuery}`);
  await call('GET', '/auth/code', '/auth/code?client_id=unknown&response_type=code&state=x');
  await call('POST', '/auth/code', '/auth/code', form({ ...Object.fromEntries(codeQuery), username: 'doc', password: 'wrong' }));
  const granted = await call('POST', '/auth/code', '/auth/code', form({ ...Object.fromEntries(codeQuery), username: 'doc', password: 'doc password' }));
  t.regex(granted.headers.get('location') ?? '', /code=/);

  // Client credentials (RFC 6749 section 4.4) and resource indicators (RFC 8707).
  await addClient(db, { id: 'doc-machine', secret: 'machine-secret', grantTypes: ['client_credentials'] });
  await call('POST', '/auth/token', '/auth/token', form({ grant_type: 'client_credentials', resource: `${edge.url}/` }, basic('doc-machine', 'machine-secret')));
  await call('POST', '/auth/token', '/auth/token', form({ grant_type: 'client_credentials', resource: 'https://elsewhere.example/' }, basic('doc-machine', 'machine-secret')));

  // Introspection and revocation.
  await call('POST', '/auth/introspect', '/auth/introspect', form({ token: tokens.access_token }, app));
  await call('POST', '/auth/introspect', '/auth/introspect', form({ token: tokens.access_token }, basic('doc-app', 'wrong')));
  await call('POST', '/auth/revoke', '/auth/revoke', form({ token: tokens.access_token }, app));
  await call('POST', '/auth/revoke', '/auth/revoke', form({ token: tokens.access_token }, basic('doc-app', 'wrong')));

  // Metadata, probes, documentation.
  for (const path of ['/auth/jwks', '/.well-known/oauth-authorization-server', '/.well-known/openid-configuration', '/.well-known/oauth-protected-resource', '/health/live', '/health/ready', '/metrics', '/openapi.json', '/docs', '/app', '/', '/favicon.ico']) {
    await call('GET', path, path);
  }

  t.deepEqual(contract.operations().filter((operation) => !contract.exercised.has(operation)), [], 'every documented operation was exercised');
});

test('every route a client can reach is documented', (t) => {
  const paths = Object.keys(doc['paths'] as object);
  for (const route of ['/register', '/heroes', '/heroes/{id}', '/auth/token', '/auth/code', '/auth/revoke', '/auth/introspect', '/auth/jwks', '/.well-known/oauth-authorization-server', '/.well-known/openid-configuration', '/.well-known/oauth-protected-resource']) {
    t.true(paths.includes(route), route);
  }
  const schemes = (doc['components'] as { securitySchemes: Record<string, { flows?: Record<string, { scopes: object }> }> }).securitySchemes;
  t.deepEqual(Object.keys(schemes['oauth2']!.flows!).sort(), ['authorizationCode', 'clientCredentials', 'password']);
  t.deepEqual(Object.keys(schemes['oauth2']!.flows!['password']!.scopes).sort(), ['heroes', 'heroes:read', 'heroes:write']);
});

type ExampleOperation = {
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; example?: unknown }>;
  requestBody?: { content: Record<string, { schema?: { $ref?: string }; example?: unknown }> };
};

/** The examples the document gives for a body: the media type's `example`, else its schema's `examples`. */
function documentedExamples(media: { schema?: { $ref?: string }; example?: unknown }): unknown[] {
  if (media.example !== undefined) return [media.example];
  const name = media.schema?.$ref?.split('/').at(-1);
  const schema = name ? (doc['components'] as { schemas: Record<string, { examples?: unknown[] }> }).schemas[name] : undefined;
  return schema?.examples ?? [];
}

test('every documented example is sent and answered as documented (status, headers, body)', async (t) => {
  const contract = new OpenApiContract(doc as never);
  await db.oAuthClient.upsert({ where: { id: 'doc-app' }, update: {}, create: { id: 'doc-app', hashedSecret: await bcrypt.hash('doc-secret', 4) } });
  await fetch(`${edge.url}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'example-user', password: 'example-user-password' }) });
  const tokens = (await fetch(`${edge.url}/auth/token`, {
    method: 'POST',
    headers: { authorization: app, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=password&username=example-user&password=example-user-password',
  }).then((r) => r.json())) as { access_token: string };
  // The example hero id (11) exists, so the examples of /heroes/{id} reach the hero.
  await sqlHero(11, 'Mr. Nice');

  let sent = 0;
  for (const [path, item] of Object.entries(doc['paths'] as Record<string, Record<string, unknown>>)) {
    const shared = (item['parameters'] as ExampleOperation['parameters']) ?? [];
    for (const method of ['get', 'post', 'put', 'delete']) {
      const operation = item[method] as ExampleOperation | undefined;
      if (!operation) continue;
      const parameters = [...shared, ...(operation.parameters ?? [])];
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => String(parameters.find((p) => p.name === name && p.in === 'path')?.example ?? 1));
      const security = Object.keys(operation.security?.[0] ?? {})[0];
      const authorization = security === 'oauth2' || security === 'bearerToken' ? `Bearer ${tokens.access_token}` : security === 'clientBasic' ? app : undefined;
      const bodies = Object.entries(operation.requestBody?.content ?? {}).filter(([type]) => type === 'application/json')
        .flatMap(([type, media]) => documentedExamples(media).map((example) => ({ type, example })));
      if (bodies.length === 0 && (url.includes('{') || !parameters.some((p) => p.example !== undefined))) continue;
      for (const body of bodies.length > 0 ? bodies : [undefined]) {
        const res = await fetch(`${edge.url}${url}`, {
          method: method.toUpperCase(),
          redirect: 'manual',
          headers: { ...(authorization ? { authorization } : {}), ...(body ? { 'content-type': body.type } : {}) },
          ...(body ? { body: JSON.stringify(body.example) } : {}),
        });
        const status = res.status;
        await t.notThrowsAsync(contract.check(method, path, res), `${method.toUpperCase()} ${url} ${JSON.stringify(body?.example ?? null)} → ${status}`);
        t.true(status < 500, `${method.toUpperCase()} ${url}: a documented example is not a server error (${status})`);
        sent += 1;
      }
    }
  }
  t.true(sent >= 6, `examples sent: ${sent}`);
});

async function sqlHero(id: number, name: string): Promise<void> {
  await db.$executeRawUnsafe('INSERT INTO heroes (id, name) VALUES ($1, $2) ON CONFLICT DO NOTHING', id, name);
}

test('what the document says matches the prose docs and shows real examples', (t) => {
  const schemas = (doc['components'] as { schemas: Record<string, { examples?: unknown[]; properties?: Record<string, unknown> }> }).schemas;
  // Swagger UI shows `additionalProp1` for an open object without an example, and a schema-wide
  // example under every status: each error answer has its own, the body the service sends for it.
  const examples: string[] = [];
  for (const [route, item] of Object.entries(doc['paths'] as Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { example?: { error?: unknown } }> }> }>>)) {
    for (const [method, operation] of Object.entries(item)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const media = response.content?.['application/json'];
        if (Number(status) < 400 || !media || route === '/health/ready') continue;
        t.is(typeof media.example?.error, 'string', `${method.toUpperCase()} ${route} ${status} has its own example`);
        examples.push(JSON.stringify(media.example));
      }
    }
  }
  t.true(new Set(examples).size >= 10, 'the examples differ by status');
  t.truthy(schemas['Error']!.properties!['reasons'], 'validation errors carry `reasons`');
  const http = fs.readFileSync(path.join(repoRoot, 'docs/http.md'), 'utf8');
  t.regex(http, /`reasons`/, 'docs/http.md lists the reasons member');
  t.notRegex(http, /rejected key \(e\.g\. `id`/, 'POST /heroes ignores an id (Aqueduct): docs/http.md must not say it is refused');
  const oauth2 = (doc['components'] as { securitySchemes: Record<string, { description?: string }> }).securitySchemes['oauth2']!;
  t.notRegex(oauth2.description ?? '', /without scopes have full access/);
});
