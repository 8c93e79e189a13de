/**
 * Operating `npm start` as a production service: drain on SIGTERM under
 * load, supervision after kill -9, request ids joined across both servers,
 * metrics on both.
 */
import test from 'ava';
import pg from 'pg';
import { createEmptyDatabase, type TestDatabase } from '@heroes/test-kit';
import { acceptedConnections, basic, waitFor } from '@heroes/test-kit';
import { authCli } from './_helpers/auth-cli.ts';
import { childCommands, freePort, startStack, type RunningStack } from './_helpers/stack.ts';

let database: TestDatabase;
let env: NodeJS.ProcessEnv;
let base: string;
let authBase: string;

test.before(async () => {
  // Empty: npm start applies the migrations (as in production).
  database = await createEmptyDatabase();
  const port = await freePort();
  const authPort = await freePort();
  base = `http://127.0.0.1:${port}`;
  authBase = `http://127.0.0.1:${authPort}`;
  env = {
    ...process.env,
    DATABASE_URL: database.url,
    PORT: String(port),
    AUTH_PORT: String(authPort),
    PUBLIC_BASE_URL: base,
    BCRYPT_COST: '10',
    LOG_LEVEL: 'info',
    SHUTDOWN_TIMEOUT_MS: '20000',
  };
  await authCli(env, ['add-client', '--id', 'ops-app', '--secret', 'ops-secret']);
});
test.after.always(() => database?.drop());

const opsApp = basic('ops-app', 'ops-secret');

function register(username: string): Promise<Response> {
  return fetch(`${base}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', connection: 'close' },
    body: JSON.stringify({ username, password: 'operations-password' }),
  });
}

function passwordGrant(username: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}/auth/token`, {
    method: 'POST',
    headers: { authorization: opsApp, 'content-type': 'application/x-www-form-urlencoded', connection: 'close', ...headers },
    body: `grant_type=password&username=${username}&password=operations-password`,
  });
}

async function serverPids(stack: RunningStack): Promise<{ auth: number; resource: number }> {
  const children = await childCommands(stack.child.pid!);
  const pid = (name: string) => children.find((c) => c.command.includes(`${name}/src/main.ts`))?.pid;
  return { auth: pid('auth-server')!, resource: pid('resource-server')! };
}

const ready = (url: string) => async () => (await fetch(`${url}/health/ready`)).status === 200;

test.serial('request ids join the log lines of both servers; both serve health and metrics', async (t) => {
  const stack = await startStack(env);
  try {
    t.is((await register('trace-user')).status, 200);
    const token = await passwordGrant('trace-user', { 'x-request-id': 'e2e-trace-1' });
    t.is(token.status, 200);
    t.is(token.headers.get('x-request-id'), 'e2e-trace-1');
    const generated = await fetch(`${base}/heroes`);
    t.regex(generated.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    const { access_token: accessToken } = (await token.json()) as { access_token: string };
    for (let i = 0; i < 3; i++) t.is((await fetch(`${base}/heroes`, { headers: { authorization: `Bearer ${accessToken}` } })).status, 200);

    const logLines = () => stack.output().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
    // Each server writes a request's line when its response closes: wait for both lines of the traced request.
    await waitFor(() => logLines().filter((line) => line['reqId'] === 'e2e-trace-1' && line['msg'] === 'request').length >= 2, { message: () => stack.output() });
    const lines = logLines();
    const traced = lines.filter((line) => line['reqId'] === 'e2e-trace-1');
    t.true(traced.some((line) => line['name'] === 'resource-server' && line['msg'] === 'request' && line['forwarded'] === true), stack.output());
    t.true(traced.some((line) => line['name'] === 'auth-server' && line['msg'] === 'request' && line['path'] === '/auth/token'), stack.output());
    t.true(lines.filter((line) => line['msg'] === 'request').every((line) => typeof line['reqId'] === 'string'), 'every request line has an id');

    for (const url of [base, authBase]) {
      const live = await fetch(`${url}/health/live`);
      t.is(live.status, 200);
      const readiness = (await (await fetch(`${url}/health/ready`)).json()) as { status: string; checks: Record<string, string> };
      t.is(readiness.status, 'ready');
      t.is(readiness.checks['database'], 'up');
    }
    const edgeReady = (await (await fetch(`${base}/health/ready`)).json()) as { checks: Record<string, string> };
    t.deepEqual(edgeReady.checks, { database: 'up', queryTimeouts: 'up', revocationFeed: 'up', authServer: 'up', clientCredentials: 'up' });

    const edgeMetrics = await (await fetch(`${base}/metrics`)).text();
    t.regex(edgeMetrics, /^http_requests_total\{method="GET",route="\/heroes",status="200",server="resource-server"\} 3$/m);
    t.regex(edgeMetrics, /^http_requests_total\{method="POST",route="\/auth\/\*",status="200",server="resource-server"\} 1$/m);
    t.regex(edgeMetrics, /^introspection_cache_lookups_total\{result="miss",server="resource-server"\} 1$/m);
    t.regex(edgeMetrics, /^introspection_cache_lookups_total\{result="hit",server="resource-server"\} 2$/m);
    t.regex(edgeMetrics, /^db_pool_connections\{pool="heroes",state="total",server="resource-server"\} [1-9]\d*$/m);
    t.notRegex(edgeMetrics, /pool="prisma"/, 'the edge talks to PostgreSQL through its pg pool only');
    t.regex(edgeMetrics, /^password_hash_queue_depth\{server="resource-server"\} \d+$/m);
    t.regex(edgeMetrics, /^process_resident_memory_bytes\{server="resource-server"\} \d+/m);
    const authMetrics = await (await fetch(`${authBase}/metrics`)).text();
    t.regex(authMetrics, /^http_requests_total\{method="POST",route="\/auth\/token",status="200",server="auth-server"\} 1$/m);
    // The hero requests' one introspection, and the edge's readiness check of its own credentials (once, before they were first accepted).
    t.regex(authMetrics, /^http_requests_total\{method="POST",route="\/auth\/introspect",status="200",server="auth-server"\} 2$/m);
    t.regex(authMetrics, /^db_pool_connections\{pool="prisma",state="total",server="auth-server"\} [1-9]\d*$/m);
  } finally {
    t.is(await stack.stop('SIGTERM'), 0);
  }
});

test.serial('SIGTERM during concurrent requests: every request gets its whole answer, every acknowledged write is stored, exit 0', async (t) => {
  const stack = await startStack({ ...env, BCRYPT_COST: '12' });
  let code: Promise<number | null> | undefined;
  t.teardown(async () => {
    if (!code) await stack.stop('SIGTERM'); // failed before the signal: leave the ports free for the next test
  });
  const { resource } = await serverPids(stack);
  const edgePort = Number(new URL(base).port);
  let answered = 0;
  const counted = <T>(request: Promise<T>) => request.finally(() => answered++);
  const names = Array.from({ length: 12 }, (_, i) => `drain-${i}`);
  const registrations = names.map((name) => counted(register(name).then(async (res) => ({ status: res.status, body: (await res.json()) as { username?: string } }))));
  // Token requests cross both servers: the edge must finish relaying them before the authorization server stops.
  await register('drain-token').then((res) => res.arrayBuffer());
  const grants = Array.from({ length: 4 }, () => counted(passwordGrant('drain-token').then(async (res) => ({ status: res.status, body: (await res.json()) as { access_token?: string } }))));
  // The signal must not overtake a request on its way: wait until every request not yet answered
  // has its connection accepted by the edge (each request has its own: Connection: close).
  const total = names.length + grants.length;
  await waitFor(() => acceptedConnections(resource, edgePort) >= total - answered, {
    message: () => `the edge accepted ${acceptedConnections(resource, edgePort)} connections for ${total - answered} requests not yet answered`,
  });
  t.log(`${total - answered} of ${total} requests in flight at SIGTERM`);
  code = stack.stop('SIGTERM');
  const answers = await Promise.all(registrations);
  const tokens = await Promise.all(grants);
  t.is(await code, 0, stack.output());
  for (const [i, answer] of answers.entries()) {
    t.is(answer.status, 200, JSON.stringify(answer));
    t.is(answer.body.username, names[i]);
  }
  for (const token of tokens) {
    t.is(token.status, 200, JSON.stringify(token));
    t.is(typeof token.body.access_token, 'string');
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const stored = await client.query<{ username: string }>("SELECT username FROM users WHERE username LIKE 'drain-%'");
  await client.end();
  t.deepEqual(stored.rows.map((row) => row.username).sort(), [...names, 'drain-token'].sort());
  t.false(/aborted/.test(stack.output()), 'no request line was cut');
});

test.serial('npm start restarts a server killed with SIGKILL, with backoff, and keeps serving', async (t) => {
  const stack = await startStack(env);
  try {
    for (const which of ['resource', 'auth'] as const) {
      const before = await serverPids(stack);
      process.kill(before[which], 'SIGKILL');
      const name = which === 'resource' ? 'resource-server' : 'auth-server';
      await waitFor(() => stack.output().includes(`${name} exited (SIGKILL); restarting in`), { timeoutMs: 60_000, message: () => stack.output() });
      await waitFor(ready(which === 'resource' ? base : authBase), { timeoutMs: 60_000, message: `${name} came back` });
      const after = await serverPids(stack);
      t.not(after[which], before[which]);
      t.is(stack.child.exitCode, null, 'npm start still runs');
    }
    await waitFor(ready(base), { timeoutMs: 60_000 });
    t.is((await register('after-restarts')).status, 200);
    t.is((await passwordGrant('after-restarts')).status, 200);
  } finally {
    t.is(await stack.stop('SIGTERM'), 0);
  }
});

test.serial('with WORKERS=2 the primary replaces a worker killed with SIGKILL; the port keeps answering', async (t) => {
  const { spawnProcess } = await import('@heroes/test-kit');
  const { repoRoot } = await import('@heroes/test-kit');
  const path = await import('node:path');
  const auth = await spawnProcess(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'packages/auth-server/src/main.ts')], {
    env: { ...env, AUTH_HOST: '127.0.0.1' },
    ready: /authorization server listening/,
    timeoutMs: 90_000,
  });
  t.teardown(() => auth.stop());
  const primary = await spawnProcess(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'packages/resource-server/src/main.ts')], {
    env: { ...env, WORKERS: '2', HOST: '127.0.0.1' },
    ready: /resource server listening[\s\S]*resource server listening/,
    timeoutMs: 90_000,
  });
  try {
    const workers = async () => (await childCommands(primary.child.pid!)).filter((c) => c.command.includes('main.ts')).map((c) => c.pid);
    const before = await workers();
    t.is(before.length, 2);
    process.kill(before[0]!, 'SIGKILL');
    await waitFor(() => primary.output().includes('worker died; started a replacement'), { timeoutMs: 60_000, message: () => primary.output() });
    await waitFor(async () => {
      const now = await workers();
      return now.length === 2 && !now.includes(before[0]!);
    }, { timeoutMs: 60_000, message: 'a replacement worker runs' });
    await waitFor(ready(base), { timeoutMs: 60_000 });
    t.is(primary.child.exitCode, null, 'the primary and the other worker kept running');
  } finally {
    t.is(await primary.stop('SIGTERM'), 0, primary.output());
  }
});
