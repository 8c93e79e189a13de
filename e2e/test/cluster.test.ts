/**
 * `npm run cluster` (scripts/cluster.ts): two authorization servers and two
 * resource servers behind HAProxy, sharing one database. Shows that tokens
 * from one authorization server are introspected by the other, that a
 * revocation reaches every resource server (how fast: `npm run bench`,
 * section `revocation`), and that killing one replica of each kind under
 * load fails no request.
 * Needs Debian's haproxy (`npm test` finds or installs it, scripts/test.ts);
 * without it the test fails with one line saying what to install.
 */
import path from 'node:path';
import test from 'ava';
import { repoRoot } from '@heroes/db';
import { createEmptyDatabase, type TestDatabase } from '@heroes/db/testing';
import { basic, passwordToken, spawnProcess, waitFor, type SpawnedProcess } from '@heroes/test-kit';
import { findHaproxy } from '../../scripts/cluster/find-haproxy.ts';
import { authCli } from './_helpers/auth-cli.ts';
import { childCommands, freePort } from './_helpers/stack.ts';

const RS_SECRET = 'cluster-rs-secret-0123456789abcdefghij';
let database: TestDatabase;
let cluster: SpawnedProcess;
let base: string;
let ports: { auth: number[]; edge: number[] };
let env: NodeJS.ProcessEnv;

const haproxy = findHaproxy();
const clusterTest = haproxy ? test.serial : test.serial.skip;
if (!haproxy) test('haproxy is installed (apt-get install haproxy, or set HAPROXY_PATH)', (t) => t.fail('haproxy not found: apt-get install haproxy, or set HAPROXY_PATH'));

const form = (url: string, authorization: string, body: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body).toString() });

async function token(at: string, username = 'cluster-user'): Promise<string> {
  return (await passwordToken(at, { id: 'cluster-app', secret: 'cluster-secret' }, username, 'cluster-password')).access_token;
}

const heroes = (at: string, accessToken: string) => fetch(`${at}/heroes`, { headers: { authorization: `Bearer ${accessToken}` } });

async function replicaPid(name: string): Promise<number | undefined> {
  return (await childCommands(cluster.child.pid!)).find((c) => c.command.trim().endsWith(`--replica ${name}`))?.pid;
}

/** Whether a (restarted) replica has served any request besides health checks: a fresh process counts only its own. */
async function hasServed(url: string): Promise<boolean> {
  return /^http_requests_total\{[^}]*\} [1-9]/m.test(await (await fetch(`${url}/metrics`)).text());
}

test.before(async () => {
  if (!haproxy) return;
  database = await createEmptyDatabase();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  env = {
    ...process.env,
    DATABASE_URL: database.url,
    PORT: String(port),
    AUTH_PORT: String(await freePort()),
    PUBLIC_BASE_URL: base,
    RESOURCE_SERVER_CLIENT_SECRET: RS_SECRET,
    BCRYPT_COST: '4',
    LOG_LEVEL: 'warn',
  };
  cluster = await spawnProcess(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'scripts/cluster.ts')], {
    env,
    ready: /replicas (\{.*\})/,
    timeoutMs: 180_000,
  });
  ports = JSON.parse(cluster.match[1]!) as { auth: number[]; edge: number[] };
  await authCli(env, ['add-client', '--id', 'cluster-app', '--secret', 'cluster-secret']);
  const registered = await fetch(`${base}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'cluster-user', password: 'cluster-password' }),
  });
  if (registered.status !== 200) throw new Error(`register: ${registered.status}`);
});

test.after.always(async () => {
  if (cluster) await cluster.stop('SIGTERM', 30_000);
  await database?.drop();
});

clusterTest('a token from one authorization server is introspected by the other, and accepted by every resource server', async (t) => {
  const [auth1, auth2] = ports.auth.map((port) => `http://127.0.0.1:${port}`) as [string, string];
  for (const [issuer, introspector] of [[auth1, auth2], [auth2, auth1]] as const) {
    const accessToken = await token(issuer);
    const res = await form(`${introspector}/auth/introspect`, basic('resource-server', RS_SECRET), { token: accessToken });
    t.is(res.status, 200);
    const body = (await res.json()) as { active: boolean; client_id?: string };
    t.true(body.active, `${issuer} → ${introspector}`);
    t.is(body.client_id, 'cluster-app');
    for (const port of ports.edge) t.is((await heroes(`http://127.0.0.1:${port}`, accessToken)).status, 200);
  }
});

clusterTest('a revocation reaches every resource server', async (t) => {
  const accessToken = await token(base);
  // Every resource server has the token cached as active.
  for (const port of ports.edge) t.is((await heroes(`http://127.0.0.1:${port}`, accessToken)).status, 200);
  const revoked = await form(`${base}/auth/revoke`, basic('cluster-app', 'cluster-secret'), { token: accessToken });
  t.is(revoked.status, 200);
  await Promise.all(ports.edge.map((port) => waitFor(
    async () => (await heroes(`http://127.0.0.1:${port}`, accessToken)).status === 401,
    { message: `resource server on port ${port} still serves the revoked token` },
  )));
  t.pass('refused by every resource server');
});

clusterTest('killing one replica of each kind under load fails no request; both come back', async (t) => {
  const accessToken = await token(base);
  let running = true;
  let ok = 0;
  const failures: string[] = [];
  const worker = async (i: number) => {
    while (running) {
      const url = i % 2 === 0 ? `${base}/heroes` : `${base}/.well-known/oauth-authorization-server`;
      try {
        const res = await fetch(url, { headers: i % 2 === 0 ? { authorization: `Bearer ${accessToken}` } : {} });
        await res.arrayBuffer();
        if (res.status === 200) ok++;
        else failures.push(`${url} → ${res.status}`);
      } catch (err) {
        failures.push(`${url} → ${(err as Error).message}`);
      }
    }
  };
  const load = Array.from({ length: 6 }, (_, i) => worker(i));
  let back = false;
  try {
    await waitFor(() => ok > 50 || failures.length > 0, { message: 'the load never got going' });
    const before = { edge: await replicaPid('edge-1'), auth: await replicaPid('auth-1') };
    if (!before.edge || !before.auth) throw new Error(`replicas not found: ${JSON.stringify(await childCommands(cluster.child.pid!))}`);
    process.kill(before.edge, 'SIGKILL');
    process.kill(before.auth, 'SIGKILL');
    const restarted = [`http://127.0.0.1:${ports.edge[0]}`, `http://127.0.0.1:${ports.auth[0]}`];
    back = await waitFor(async () => {
      const now = { edge: await replicaPid('edge-1'), auth: await replicaPid('auth-1') };
      if (!now.edge || !now.auth || now.edge === before.edge || now.auth === before.auth) return false;
      const answers = await Promise.all(restarted.map((url) => fetch(`${url}/health/ready`)));
      return answers.every((res) => res.status === 200);
    }, { timeoutMs: 90_000, message: 'both killed replicas were restarted and are ready' });
    // Load keeps running until HAProxy has taken both restarted replicas back into rotation.
    await waitFor(async () => (await Promise.all(restarted.map(hasServed))).every(Boolean), {
      timeoutMs: 90_000,
      message: 'HAProxy never sent load to the restarted replicas',
    });
  } finally {
    running = false;
    await Promise.all(load);
  }
  t.true(back, 'both killed replicas were restarted and are ready');
  t.log(`${ok} requests answered during the kill and restart`);
  t.true(ok > 50);
  t.deepEqual(failures, []);
});
