/**
 * `npm run cluster` (scripts/cluster.ts): two authorization servers and two
 * resource servers behind HAProxy, sharing one database. Shows that tokens
 * from one authorization server are introspected by the other, that a
 * revocation reaches every resource server (how fast: `npm run bench`,
 * section `revocation`), that killing one replica of each kind under
 * load fails no request, and that a write whose replica died after
 * committing it is never replayed by HAProxy (the client retries it with its
 * Idempotency-Key and gets the first answer). The replicas listen on the
 * ports CLUSTER_AUTH_PORTS / CLUSTER_EDGE_PORTS name, and a taken port stops
 * the command before anything starts.
 * Needs Debian's haproxy (`npm test` finds or installs it, scripts/test.ts);
 * without it the test fails with one line saying what to install.
 */
import { execFile } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import test, { type ExecutionContext } from 'ava';
import pg from 'pg';
import { repoRoot } from '@heroes/test-kit';
import { createEmptyDatabase, type TestDatabase } from '@heroes/test-kit';
import { basic, holdsLocalPort, passwordToken, rawRequest, spawnProcess, waitFor, type SpawnedProcess } from '@heroes/test-kit';
import { findHaproxy } from '../../scripts/cluster/find-haproxy.ts';
import { authCli } from './_helpers/auth-cli.ts';
import { childCommands, freePort } from './_helpers/stack.ts';

const RS_SECRET = 'cluster-rs-secret-0123456789abcdefghij';
let database: TestDatabase;
let cluster: SpawnedProcess;
let base: string;
let ports: { auth: number[]; edge: number[] };
let env: NodeJS.ProcessEnv;
const wanted = { auth: [] as number[], edge: [] as number[] };

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
  wanted.auth = [await freePort(), await freePort()];
  wanted.edge = [await freePort(), await freePort()];
  env = {
    ...process.env,
    DATABASE_URL: database.url,
    PORT: String(port),
    AUTH_PORT: String(await freePort()),
    CLUSTER_AUTH_PORTS: wanted.auth.join(','),
    CLUSTER_EDGE_PORTS: wanted.edge.join(','),
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
  let back: boolean;
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

clusterTest('the replicas listen on the ports CLUSTER_AUTH_PORTS and CLUSTER_EDGE_PORTS name', (t) => {
  t.deepEqual(ports, wanted);
});

const run = promisify(execFile);

/** `npm run cluster` run to its end: exit code and everything it printed. */
async function runCluster(extra: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'scripts/cluster.ts')], {
      cwd: repoRoot,
      // Nothing could start anyway: no database answers there.
      env: { ...process.env, DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/none', ...extra },
      timeout: 60_000,
    });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const { code, stdout, stderr } = err as { code: number; stdout: string; stderr: string };
    return { code, output: stdout + stderr };
  }
}

clusterTest('a taken port, or a port named twice, stops npm run cluster before the database or any replica starts', async (t) => {
  const blocker = net.createServer();
  const taken = await freePort();
  await new Promise<void>((resolve) => blocker.listen(taken, '127.0.0.1', resolve));
  t.teardown(() => blocker.close());
  const [port, authPort, free] = [await freePort(), await freePort(), await freePort()];
  const edge = await runCluster({ PORT: String(port), AUTH_PORT: String(authPort), CLUSTER_EDGE_PORTS: `${free},${taken}` });
  t.is(edge.code, 1);
  t.is(edge.output, `[cluster] CLUSTER_EDGE_PORTS=${taken}: cannot listen on 127.0.0.1:${taken}: the port is already in use\n`);
  const front = await runCluster({ PORT: String(taken), AUTH_PORT: String(authPort) });
  t.is(front.code, 1);
  t.is(front.output, `[cluster] PORT=${taken}: cannot listen on 127.0.0.1:${taken}: the port is already in use\n`);
  const twice = await runCluster({ PORT: String(port), AUTH_PORT: String(authPort), CLUSTER_AUTH_PORTS: String(port), CLUSTER_AUTH_REPLICAS: '1' });
  t.is(twice.code, 1);
  t.is(twice.output, `[cluster] CLUSTER_AUTH_PORTS=${port}: the same port as PORT\n`);
  const count = await runCluster({ PORT: String(port), AUTH_PORT: String(authPort), CLUSTER_EDGE_PORTS: String(free), CLUSTER_EDGE_REPLICAS: '2' });
  t.is(count.code, 1);
  t.is(count.output, '[cluster] CLUSTER_EDGE_PORTS names 1 ports for CLUSTER_EDGE_REPLICAS=2: give one port per replica\n');
});

/** Which edge replica holds the database connection whose client port PostgreSQL reports. */
async function edgeHolding(clientPort: number): Promise<{ name: string; pid: number }> {
  for (const name of ports.edge.map((_, i) => `edge-${i + 1}`)) {
    const pid = await replicaPid(name);
    if (pid && holdsLocalPort(pid, clientPort)) return { name, pid };
  }
  throw new Error(`no edge replica holds local port ${clientPort}`);
}

/**
 * POST /heroes through HAProxy while its replica dies: the replica's INSERT waits on a table lock, the
 * replica is stopped (SIGSTOP) while it waits, the lock is let go, then the replica is killed. Without a key
 * the INSERT commits on its own before the kill (the reported case: created, never answered); with a key
 * the create's transaction never commits. Returns HAProxy's answer once the replica is back.
 */
async function createWhileReplicaDies(t: ExecutionContext, accessToken: string, name: string, key?: string): Promise<{ status: number; text: string }> {
  const locker = new pg.Client({ connectionString: database.url });
  const watcher = new pg.Client({ connectionString: database.url });
  await Promise.all([locker.connect(), watcher.connect()]);
  t.teardown(async () => {
    await locker.end().catch(() => {});
    await watcher.end().catch(() => {});
  });
  await locker.query('BEGIN');
  await locker.query('LOCK TABLE heroes IN SHARE ROW EXCLUSIVE MODE');
  const answer = createHero(accessToken, name, key);
  const clientPort = await waitFor(async () => (await watcher.query<{ client_port: number }>(
    "SELECT client_port FROM pg_stat_activity WHERE query LIKE 'INSERT INTO heroes%' AND wait_event_type = 'Lock'",
  )).rows[0]?.client_port, { message: 'the INSERT never waited on the lock' });
  const replica = await edgeHolding(clientPort);
  process.kill(replica.pid, 'SIGSTOP');
  try {
    await locker.query('COMMIT');
    if (key === undefined) {
      await waitFor(async () => (await watcher.query('SELECT 1 FROM heroes WHERE name = $1', [name])).rowCount === 1, {
        message: 'the stopped replica\'s INSERT never committed',
      });
    }
  } finally {
    process.kill(replica.pid, 'SIGKILL');
  }
  const res = await answer;
  // The killed replica is back before anything else counts on it.
  await waitFor(async () => {
    const pid = await replicaPid(replica.name);
    if (!pid || pid === replica.pid) return false;
    return (await fetch(`http://127.0.0.1:${ports.edge[Number(replica.name.split('-')[1]) - 1]}/health/ready`)).status === 200;
  }, { timeoutMs: 90_000, message: `${replica.name} was never restarted` });
  return res;
}

// Each on a connection of its own (no agent): on a reused client connection HAProxy answers a replica's silence by closing it, for the client to retry.
async function createHero(accessToken: string, name: string, key?: string): Promise<{ status: number; text: string }> {
  const res = await rawRequest(Number(new URL(base).port), {
    method: 'POST',
    path: '/heroes',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify({ name }),
  });
  return { status: res.status, text: res.text };
}

async function heroIds(name: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query<{ id: number }>('SELECT id FROM heroes WHERE name = $1', [name])).rows.map((row) => row.id);
  } finally {
    await client.end();
  }
}

clusterTest('a POST whose replica dies after committing it is not replayed by HAProxy: 502, not a 409 for a hero that was created', async (t) => {
  const name = `committed-then-killed-${Date.now()}`;
  const answer = await createWhileReplicaDies(t, await token(base), name);
  t.is(answer.status, 502, answer.text);
  t.deepEqual(JSON.parse(answer.text), { error: 'bad gateway' });
  t.is((await heroIds(name)).length, 1);
});

clusterTest('a create whose replica died, retried with its Idempotency-Key, is made exactly once', async (t) => {
  const accessToken = await token(base);
  const name = `keyed-killed-${Date.now()}`;
  const key = `"${name}"`;
  const answer = await createWhileReplicaDies(t, accessToken, name, key);
  t.is(answer.status, 502, answer.text);
  // The dead replica's transaction ends when PostgreSQL notices the lost connection: until then 409, retry later.
  const retried = await waitFor(async () => {
    const res = await createHero(accessToken, name, key);
    return res.status === 409 ? undefined : res;
  }, { message: 'the key stayed in use' });
  t.is(retried.status, 200);
  const hero = JSON.parse(retried.text) as { id: number; name: string };
  t.is(hero.name, name);
  t.deepEqual(await heroIds(name), [hero.id]);
  const repeat = await createHero(accessToken, name, key);
  t.is(repeat.status, 200);
  t.deepEqual(JSON.parse(repeat.text), hero);
});
