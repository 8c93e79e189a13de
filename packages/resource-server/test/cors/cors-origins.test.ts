/**
 * CORS of the edge's own routes (docs/http.md, "Cross-origin requests"):
 * any origin by default, CORS_ORIGINS narrows it; preflights answered;
 * WWW-Authenticate exposed; the headers on error answers too.
 */
import test from 'ava';
import { activeToken, startFakeAuthServer, type FakeAuthServer } from '../_helpers/fake-auth-server.ts';
import { startInProcess, type InProcessServer } from '../_helpers/in-process.ts';
import { loadConfig } from '../../src/config/load-config.ts';

let auth: FakeAuthServer;
let open: InProcessServer;
let narrow: InProcessServer;
const app = 'https://app.example';

test.before(async () => {
  auth = await startFakeAuthServer();
  auth.tokens.set('cors-token', activeToken());
  open = await startInProcess(auth.url);
  narrow = await startInProcess(auth.url, { corsOrigins: [app] }, open.database);
});
test.after.always(async () => {
  await narrow?.close();
  await open?.close();
  await auth?.close();
});

const preflight = (url: string, origin: string, method = 'POST') =>
  fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' } });

test('a preflight from any origin is answered by default', async (t) => {
  const res = await preflight(`${open.url}/heroes`, 'https://elsewhere.example');
  t.is(res.status, 204);
  t.is(res.headers.get('access-control-allow-origin'), '*');
  t.regex(res.headers.get('access-control-allow-methods') ?? '', /DELETE/);
  t.regex(res.headers.get('access-control-allow-headers') ?? '', /Authorization/i);
  const register = await preflight(`${open.url}/register`, 'https://elsewhere.example');
  t.is(register.status, 204);
});

test('answers and error answers carry the CORS headers, WWW-Authenticate exposed', async (t) => {
  const ok = await fetch(`${open.url}/heroes`, { headers: { origin: app, authorization: 'Bearer cors-token' } });
  t.is(ok.status, 200);
  t.is(ok.headers.get('access-control-allow-origin'), '*');
  const denied = await fetch(`${open.url}/heroes`, { headers: { origin: app } });
  t.is(denied.status, 401);
  t.is(denied.headers.get('access-control-allow-origin'), '*');
  t.regex(denied.headers.get('access-control-expose-headers') ?? '', /WWW-Authenticate/);
  const bad = await fetch(`${open.url}/register`, { method: 'POST', headers: { origin: app, 'content-type': 'application/json' }, body: '{' });
  t.is(bad.status, 400);
  t.is(bad.headers.get('access-control-allow-origin'), '*');
});

test('a request without Origin gets no CORS headers', async (t) => {
  const res = await fetch(`${open.url}/heroes`);
  t.is(res.headers.get('access-control-allow-origin'), null);
});

test('CORS_ORIGINS allows only the listed origins', async (t) => {
  const allowed = await preflight(`${narrow.url}/heroes`, app);
  t.is(allowed.headers.get('access-control-allow-origin'), app);
  const other = await preflight(`${narrow.url}/heroes`, 'https://evil.example');
  t.is(other.headers.get('access-control-allow-origin'), null);
  const otherGet = await fetch(`${narrow.url}/heroes`, { headers: { origin: 'https://evil.example', authorization: 'Bearer cors-token' } });
  t.is(otherGet.headers.get('access-control-allow-origin'), null);
});

test('CORS_ORIGINS must list origins', async (t) => {
  const config = await loadConfig({ DATABASE_URL: 'postgresql://x/y', RESOURCE_SERVER_CLIENT_SECRET: 's', CORS_ORIGINS: 'https://a.example, http://localhost:5173/' });
  t.deepEqual(config.corsOrigins, ['https://a.example', 'http://localhost:5173']);
  const error = await t.throwsAsync(loadConfig({ DATABASE_URL: 'postgresql://x/y', RESOURCE_SERVER_CLIENT_SECRET: 's', CORS_ORIGINS: 'https://a.example/app' }));
  t.regex(error!.message, /CORS_ORIGINS.*origins such as https:\/\/app\.example \(got 'https:\/\/a\.example\/app'\)/);
});
