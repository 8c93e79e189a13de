/**
 * MANAGEMENT_PORT: the edge's probes and /metrics on a port of their own, for kubelet and Prometheus, which no
 * Service or Ingress publishes (deploy/kubernetes); nothing else is served there.
 */
import test from 'ava';
import { basic, freePort } from '@heroes/test-kit';
import { startFakeAuthServer, type FakeAuthServer } from '../_helpers/fake-auth-server.ts';
import { startInProcess, type InProcessServer } from '../_helpers/in-process.ts';

let auth: FakeAuthServer;
let rs: InProcessServer;
let management: string;

test.before(async () => {
  auth = await startFakeAuthServer(basic('resource-server', 'rs-secret'));
  const managementPort = await freePort();
  rs = await startInProcess(auth.url, { managementPort });
  management = `http://127.0.0.1:${managementPort}`;
});
test.after.always(async () => {
  await rs?.close();
  await auth?.close();
});

test('the probes answer on the management port, with the same checks as the main port', async (t) => {
  t.is((await fetch(`${management}/health/live`)).status, 200);
  const ready = (await (await fetch(`${management}/health/ready`)).json()) as { checks: Record<string, string> };
  t.deepEqual(Object.keys(ready.checks), ['database', 'queryTimeouts', 'revocationFeed', 'authServer', 'clientCredentials']);
  t.regex(await (await fetch(`${management}/metrics`)).text(), /^introspection_cache_lookups_total|^# HELP/m);
});

test('nothing but the probes and /metrics: the hero routes, the forwarded /auth and the pages are 404 there', async (t) => {
  for (const path of ['/heroes', '/register', '/auth/token', '/app', '/', '/openapi.json']) {
    const res = await fetch(`${management}${path}`);
    t.is(res.status, 404, path);
    await res.arrayBuffer();
  }
});
