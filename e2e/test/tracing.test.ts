/**
 * OpenTelemetry tracing across the edge, the authorization server and
 * PostgreSQL (docs/operations.md, "Tracing"), with `npm start` and an OTLP
 * receiver in this process (OTLP/HTTP JSON; the default protobuf once):
 * - a password grant sent through the edge with a client `traceparent`
 *   yields, in that trace, spans of both servers and of PostgreSQL, the
 *   edge's request span an ancestor of the authorization server's;
 * - GET /heroes with a new token includes the introspection (a cache miss)
 *   and the authorization server's answer to it;
 * - every JSON log line of a traced request carries its trace_id and span_id;
 * - a whole sign-in story (register, code + PKCE, refresh, hero calls,
 *   revoke, password grant) leaves none of the secrets it sent in any span;
 * - with no endpoint (or OTEL_SDK_DISABLED=true), no OpenTelemetry SDK file
 *   is loaded and nothing reaches a receiver.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { basic, createEmptyDatabase, repoRoot, spawnProcess, startOtlpReceiver, waitFor, type OtlpReceiver, type ReceivedSpan, type TestDatabase } from '@heroes/test-kit';
import { authCli } from './_helpers/auth-cli.ts';
import { submitLoginForm } from './_helpers/login-form.ts';
import { freePort, startStack, type RunningStack } from './_helpers/stack.ts';

const SERVER = 2;
const RECORD_LOADS = path.join(repoRoot, 'e2e/test/_helpers/record-opentelemetry-loads.mjs');
const client = { id: 'tracing-app', secret: 'tracing-client-secret-5f1e', redirectUri: 'http://127.0.0.1:1/callback' };
const user = { username: 'tracing-user', password: 'tracing-password-9c2d71' };

let database: TestDatabase;
let receiver: OtlpReceiver;
let stack: RunningStack;
let base: string;
let loadsFile: string;

test.before(async () => {
  database = await createEmptyDatabase();
  receiver = await startOtlpReceiver();
  loadsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tracing-')), 'loads.txt');
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    DATABASE_URL: database.url,
    PORT: String(port),
    AUTH_PORT: String(await freePort()),
    PUBLIC_BASE_URL: base,
    BCRYPT_COST: '4',
    LOG_LEVEL: 'info',
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '50',
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${RECORD_LOADS}`,
    RECORD_LOADS_FILE: loadsFile,
  };
  stack = await startStack(env);
  await authCli(env, ['add-client', '--id', client.id, '--secret', client.secret, '--redirect-uri', client.redirectUri]);
  const registered = await fetch(`${base}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(user),
  });
  if (registered.status !== 200) throw new Error(`register answered ${registered.status}`);
});
test.after.always(async () => {
  await stack?.stop();
  await receiver?.close();
  await database?.drop();
});

/** A fresh W3C traceparent (sampled) and its ids. */
function newTraceparent(): { header: string; traceId: string; parentId: string } {
  const traceId = crypto.randomBytes(16).toString('hex');
  const parentId = crypto.randomBytes(8).toString('hex');
  return { header: `00-${traceId}-${parentId}-01`, traceId, parentId };
}

function passwordGrant(traceparent: string): Promise<Response> {
  return fetch(`${base}/auth/token`, {
    method: 'POST',
    headers: { authorization: basic(client.id, client.secret), 'content-type': 'application/x-www-form-urlencoded', traceparent },
    body: new URLSearchParams({ grant_type: 'password', username: user.username, password: user.password }).toString(),
  });
}

const serverSpan = (spans: ReceivedSpan[], service: string) => spans.find((span) => span.kind === SERVER && span.service === service);

/** Whether `ancestor` is `span`'s parent, or its parent's, and so on, within `spans`. */
function isAncestor(spans: ReceivedSpan[], ancestor: ReceivedSpan, span: ReceivedSpan): boolean {
  const byId = new Map(spans.map((each) => [each.spanId, each]));
  for (let parent = span.parentSpanId; parent !== undefined; parent = byId.get(parent)?.parentSpanId) {
    if (parent === ancestor.spanId) return true;
  }
  return false;
}

test.serial('a password grant through the edge: one trace with both servers and PostgreSQL, continuing the client\'s traceparent', async (t) => {
  const { header, traceId, parentId } = newTraceparent();
  t.is((await passwordGrant(header)).status, 200);
  const spans = await waitFor(() => {
    const found = receiver.trace(traceId);
    const complete = serverSpan(found, 'heroes-resource-server') && serverSpan(found, 'heroes-auth-server')
      && found.some((span) => span.name === 'forward to authorization server');
    return complete && found;
  }, { message: () => `spans of the trace: ${JSON.stringify(receiver.trace(traceId).map((span) => span.name))}` });

  const edge = serverSpan(spans, 'heroes-resource-server')!;
  const auth = serverSpan(spans, 'heroes-auth-server')!;
  t.is(edge.parentSpanId, parentId, 'the edge continues the client\'s trace');
  t.is(edge.name, 'POST /auth/*');
  t.is(edge.attributes['http.response.status_code'], 200);
  t.is(auth.name, 'POST /auth/token');
  t.is(auth.attributes['http.route'], '/auth/token');
  t.true(isAncestor(spans, edge, auth), 'the edge\'s request span is an ancestor of the authorization server\'s');
  const forward = spans.find((span) => span.name === 'forward to authorization server')!;
  t.true(isAncestor(spans, forward, auth), 'the forward is the authorization server\'s ancestor');

  const statements = spans.filter((span) => span.service === 'heroes-auth-server' && span.attributes['db.system.name'] === 'postgresql' && span.name.startsWith('pg.query'));
  t.true(statements.length > 0, 'the authorization server\'s statements are in the trace');
  for (const statement of statements) {
    t.true(isAncestor(spans, auth, statement), `${statement.name} belongs to the authorization server's request`);
    t.is(statement.attributes['db.postgresql.values'], undefined, 'no statement parameters');
  }
  t.true(spans.some((span) => span.name === 'password hash' && span.service === 'heroes-auth-server'), 'the password check is a span');
});

test.serial('GET /heroes with a new token: the introspection (a cache miss) and the authorization server\'s answer are in the trace', async (t) => {
  const token = (await (await passwordGrant(newTraceparent().header)).json()) as { access_token: string };
  const { header, traceId } = newTraceparent();
  const heroes = await fetch(`${base}/heroes`, { headers: { authorization: `Bearer ${token.access_token}`, traceparent: header } });
  t.is(heroes.status, 200);
  const spans = await waitFor(() => {
    const found = receiver.trace(traceId);
    return serverSpan(found, 'heroes-resource-server') && serverSpan(found, 'heroes-auth-server') && found.some((span) => span.name === 'introspection') && found;
  }, { message: () => JSON.stringify(receiver.trace(traceId).map((span) => span.name)) });
  const edge = serverSpan(spans, 'heroes-resource-server')!;
  const introspection = spans.find((span) => span.name === 'introspection')!;
  t.is(edge.name, 'GET /heroes');
  t.is(introspection.attributes['heroes.introspection.cache'], 'miss');
  t.true(isAncestor(spans, edge, introspection));
  t.true(isAncestor(spans, introspection, serverSpan(spans, 'heroes-auth-server')!), 'the introspection call carries the trace to the authorization server');
  t.true(spans.some((span) => span.service === 'heroes-resource-server' && span.attributes['db.system.name'] === 'postgresql' && isAncestor(spans, edge, span)), 'the hero query is in the trace');

  const { header: again, traceId: secondTrace } = newTraceparent();
  t.is((await fetch(`${base}/heroes`, { headers: { authorization: `Bearer ${token.access_token}`, traceparent: again } })).status, 200);
  const cached = await waitFor(() => receiver.trace(secondTrace).find((span) => span.name === 'introspection'));
  t.is(cached.attributes['heroes.introspection.cache'], 'hit');
});

test.serial('every JSON log line of a traced request carries its trace_id and span_id', async (t) => {
  const { header, traceId } = newTraceparent();
  t.is((await passwordGrant(header)).status, 200);
  const lines = () => stack.output().split('\n').filter((line) => line.startsWith('{') && line.includes(traceId)).map((line) => JSON.parse(line) as Record<string, unknown>);
  await waitFor(() => lines().filter((line) => line['msg'] === 'request').length >= 2, { message: () => stack.output().slice(-3000) });
  for (const line of lines()) t.is(line['trace_id'], traceId);
  // Each line's span_id is a span of the trace (the edge's request span is exported last, once its answer is sent).
  await waitFor(() => lines().every((line) => receiver.trace(traceId).some((span) => span.spanId === line['span_id'])), {
    message: () => `log lines' span ids ${JSON.stringify(lines().map((line) => line['span_id']))}, spans ${JSON.stringify(receiver.trace(traceId).map((span) => [span.name, span.spanId]))}`,
  });
  t.pass();
  const names = new Set(lines().map((line) => line['name']));
  t.deepEqual([...names].sort(), ['auth-server', 'resource-server']);
});

test.serial('the spans of a whole sign-in story hold none of the secrets it sent', async (t) => {
  const secrets = new Map<string, string>([
    ['password', user.password],
    ['client secret', client.secret],
    ['Basic credentials', basic(client.id, client.secret).slice('Basic '.length)],
  ]);
  const traced = { traceparent: newTraceparent().header };
  const newUser = { username: 'story-user', password: 'story-password-4be81a' };
  secrets.set('new user\'s password', newUser.password);
  t.is((await fetch(`${base}/register`, { method: 'POST', headers: { 'content-type': 'application/json', ...traced }, body: JSON.stringify(newUser) })).status, 200);

  // Authorization code with PKCE, through the login form.
  const verifier = crypto.randomBytes(32).toString('base64url');
  const state = crypto.randomBytes(16).toString('base64url');
  const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
  secrets.set('code_verifier', verifier).set('state', state).set('code_challenge', challenge);
  const authorize = new URL(`${base}/auth/code`);
  authorize.search = new URLSearchParams({ client_id: client.id, redirect_uri: client.redirectUri, response_type: 'code', state, code_challenge: challenge, code_challenge_method: 'S256' }).toString();
  const { response } = await submitLoginForm(authorize, newUser);
  t.is(response.status, 302);
  for (const cookie of response.headers.getSetCookie()) secrets.set('cookie', cookie.split(';')[0]!.split('=').slice(1).join('='));
  const code = new URL(response.headers.get('location')!).searchParams.get('code')!;
  secrets.set('code', code);
  const tokenRequest = (body: Record<string, string>) => fetch(`${base}/auth/token`, {
    method: 'POST',
    headers: { authorization: basic(client.id, client.secret), 'content-type': 'application/x-www-form-urlencoded', ...traced },
    body: new URLSearchParams(body).toString(),
  });
  const first = (await (await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: client.redirectUri, code_verifier: verifier })).json()) as { access_token: string; refresh_token: string };
  secrets.set('access token', first.access_token).set('refresh token', first.refresh_token);
  const refreshed = (await (await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refresh_token })).json()) as { access_token: string; refresh_token: string };
  secrets.set('refreshed access token', refreshed.access_token).set('refreshed refresh token', refreshed.refresh_token);
  const bearer = { authorization: `Bearer ${refreshed.access_token}`, ...traced };
  t.is((await fetch(`${base}/heroes`, { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Traced Hero' }) })).status, 200);
  t.is((await fetch(`${base}/heroes?name=traced`, { headers: bearer })).status, 200);
  const revoke = await fetch(`${base}/auth/revoke`, {
    method: 'POST',
    headers: { authorization: basic(client.id, client.secret), 'content-type': 'application/x-www-form-urlencoded', ...traced },
    body: new URLSearchParams({ token: refreshed.refresh_token }).toString(),
  });
  t.is(revoke.status, 200);
  const password = (await (await tokenRequest({ grant_type: 'password', username: newUser.username, password: newUser.password })).json()) as { access_token: string };
  secrets.set('password-grant access token', password.access_token);
  t.is((await fetch(`${base}/heroes`, { headers: { authorization: `Bearer ${password.access_token}` } })).status, 200);

  // Stopping flushes every span still waiting: after it, the receiver has them all.
  t.is(await stack.stop('SIGTERM'), 0);
  const everything = JSON.stringify(receiver.spans.map((span) => span.raw));
  t.true(receiver.spans.some((span) => span.attributes['url.path'] === '/auth/code'), 'the story\'s spans arrived');
  t.true(receiver.spans.some((span) => span.attributes['url.query'] !== undefined), 'query strings are recorded, redacted');
  for (const [name, value] of secrets) {
    for (const form of new Set([value, encodeURIComponent(value)])) t.false(everything.includes(form), `the ${name} is in a span`);
  }
});

test('with no endpoint, no OpenTelemetry SDK file is loaded by any process, and log lines carry no trace ids', async (t) => {
  const offLoads = path.join(path.dirname(loadsFile), 'off-loads.txt');
  const offDatabase = await createEmptyDatabase();
  t.teardown(() => offDatabase.drop());
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: offDatabase.url,
    PORT: String(port),
    AUTH_PORT: String(await freePort()),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    BCRYPT_COST: '4',
    LOG_LEVEL: 'info',
    // Every tracing variable but the endpoint.
    OTEL_SERVICE_NAME: 'not-traced',
    OTEL_TRACES_SAMPLER: 'always_on',
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${RECORD_LOADS}`,
    RECORD_LOADS_FILE: offLoads,
  };
  delete env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const off = await startStack(env);
  try {
    t.is((await fetch(`http://127.0.0.1:${port}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'off-user', password: 'off-password-1234' }) })).status, 200);
    await waitFor(() => off.output().includes('"path":"/register"'));
  } finally {
    t.is(await off.stop(), 0);
  }
  t.false(fs.existsSync(offLoads), fs.existsSync(offLoads) ? fs.readFileSync(offLoads, 'utf8').slice(0, 2000) : '');
  t.false(off.output().includes('trace_id'));
  // The same recorder sees the SDK in the traced stack: the check above can fail.
  t.regex(fs.readFileSync(loadsFile, 'utf8'), /@opentelemetry\/sdk-trace\//);
});

test('OTEL_SDK_DISABLED=true: an endpoint is set but nothing is loaded and nothing connects; the default protocol is protobuf', async (t) => {
  const disabledReceiver = await startOtlpReceiver();
  t.teardown(disabledReceiver.close);
  const server = (variables: Record<string, string>) => spawnProcess(process.execPath, [
    '--import', 'tsx', '--import', path.join(repoRoot, 'packages/resource-server/src/register-tracing.ts'),
    '--input-type=module', '-e',
    "import http from 'node:http'; const s = http.createServer((q, r) => r.end('ok')).listen(0, '127.0.0.1', async () => { await fetch(`http://127.0.0.1:${s.address().port}/x`); console.log('answered'); });",
  ], { cwd: repoRoot, env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: disabledReceiver.url, OTEL_BSP_SCHEDULE_DELAY: '50', ...variables }, inheritEnv: false, ready: /answered/, timeoutMs: 60_000 });

  const loads = path.join(path.dirname(loadsFile), 'disabled-loads.txt');
  const disabled = await server({ OTEL_SDK_DISABLED: 'true', NODE_OPTIONS: `--import=${RECORD_LOADS}`, RECORD_LOADS_FILE: loads });
  await disabled.stop('SIGTERM');
  t.false(fs.existsSync(loads));
  t.is(disabledReceiver.requests.length, 0);

  const traced = await server({});
  try {
    await waitFor(() => disabledReceiver.requests.length > 0);
  } finally {
    await traced.stop('SIGTERM');
  }
  t.is(disabledReceiver.requests[0]!.path, '/v1/traces');
  t.is(disabledReceiver.requests[0]!.contentType, 'application/x-protobuf');
});
