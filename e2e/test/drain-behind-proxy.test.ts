/**
 * SIGTERM drain through a real ingress: `npm start` behind Debian's nginx
 * (`upstream { keepalive 16; }`, `proxy_http_version 1.1`,
 * `proxy_set_header Connection ""`, as any ingress configures it) and behind
 * HAProxy (server connections reused). 20 GET /heroes of 20,000 heroes are in
 * flight when the start script gets SIGTERM: every one is answered in full,
 * none is reset (a 502 at the proxy), and the stack exits 0
 * (packages/platform/src/server/drain.ts).
 * The signal comes once the proxy has accepted every request's connection
 * (acceptedConnections): the requests are on their way to the edge, some
 * maybe still in its accept queue.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import pg from 'pg';
import { createEmptyDatabase, type TestDatabase } from '@heroes/test-kit';
import { acceptedConnections, passwordToken, rawRequest, waitFor } from '@heroes/test-kit';
import { findHaproxy } from '../../scripts/cluster/find-haproxy.ts';
import { findTool, nginxSpec } from '../../scripts/test/find-tool.ts';
import { authCli } from './_helpers/auth-cli.ts';
import { freePort, startStack } from './_helpers/stack.ts';

const HEROES = 20_000;
const IN_FLIGHT = 20;

const nginx = findTool(nginxSpec);
const haproxy = findHaproxy();
let database: TestDatabase;
let env: NodeJS.ProcessEnv;
let edgePort: number;

test.before(async () => {
  database = await createEmptyDatabase();
  edgePort = await freePort();
  env = {
    ...process.env,
    DATABASE_URL: database.url,
    PORT: String(edgePort),
    AUTH_PORT: String(await freePort()),
    PUBLIC_BASE_URL: `http://127.0.0.1:${edgePort}`,
    BCRYPT_COST: '4',
    LOG_LEVEL: 'warn',
    SHUTDOWN_TIMEOUT_MS: '30000',
  };
  await authCli(env, ['add-client', '--id', 'drain-app', '--secret', 'drain-secret']);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query(`INSERT INTO heroes (name) SELECT 'drain hero ' || n FROM generate_series(1, ${HEROES}) AS n`);
  } finally {
    await client.end();
  }
});
test.after.always(() => database?.drop());

function nginxConfig(dir: string, port: number): string {
  return `worker_processes 1;
master_process off;
pid ${dir}/nginx.pid;
error_log stderr error;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream edge {
    server 127.0.0.1:${edgePort};
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://edge;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
    }
  }
}
`;
}

function haproxyConfig(port: number): string {
  return `defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  http-reuse always

frontend ingress
  bind 127.0.0.1:${port}
  default_backend edge

backend edge
  server edge1 127.0.0.1:${edgePort}
`;
}

/** The proxy, started on a free port; it is one process (nginx without a master, HAProxy in the foreground). */
async function startProxy(t: ExecutionContext, kind: 'nginx' | 'haproxy'): Promise<{ port: number; proxy: ChildProcess; output: () => string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `heroes-drain-${kind}-`));
  const port = await freePort();
  let command: [string, string[]];
  if (kind === 'nginx') {
    fs.writeFileSync(path.join(dir, 'nginx.conf'), nginxConfig(dir, port));
    command = [nginx!, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;']];
  } else {
    fs.writeFileSync(path.join(dir, 'haproxy.cfg'), haproxyConfig(port));
    command = [haproxy!, ['-f', path.join(dir, 'haproxy.cfg'), '-db']];
  }
  const proxy = spawn(...command, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  for (const stream of [proxy.stdout, proxy.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => proxy.once('exit', resolve));
  t.teardown(async () => {
    proxy.kill('SIGKILL');
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  });
  await waitFor(async () => (await rawRequest(port, { path: '/health/live' }).catch(() => undefined))?.status === 200, {
    message: `${kind} never answered`,
  });
  return { port, proxy, output: () => output };
}

for (const kind of ['nginx', 'haproxy'] as const) {
  const found = kind === 'nginx' ? nginx : haproxy;
  (found ? test.serial : test.serial.skip)(`SIGTERM with ${IN_FLIGHT} GET /heroes in flight through ${kind}: all answered in full, none cut, exit 0`, async (t) => {
    const stack = await startStack(env);
    let stopped: Promise<number | null> | undefined;
    t.teardown(async () => {
      if (!stopped) await stack.stop('SIGTERM');
    });
    const { port, proxy, output } = await startProxy(t, kind);
    const base = `http://127.0.0.1:${port}`;
    const registered = await fetch(`${base}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: `drain-${kind}`, password: 'drain-password-1' }),
    });
    t.is(registered.status, 200);
    const { access_token: accessToken } = await passwordToken(base, { id: 'drain-app', secret: 'drain-secret' }, `drain-${kind}`, 'drain-password-1');
    // Warm: the token is cached, and the proxy holds idle keep-alive connections to the edge.
    for (let i = 0; i < 4; i++) {
      t.is((await rawRequest(port, { path: '/heroes?limit=1', headers: { authorization: `Bearer ${accessToken}` } })).status, 200);
    }
    let answered = 0;
    // One client connection each (no agent): the proxy accepts each before forwarding it.
    const requests = Array.from({ length: IN_FLIGHT }, () => rawRequest(port, { path: '/heroes', headers: { authorization: `Bearer ${accessToken}` } })
      .then((res) => ({ status: res.status, heroes: res.status === 200 ? (res.json() as unknown[]).length : res.text }))
      .catch((err: Error) => ({ status: 0, heroes: err.message }))
      .finally(() => answered++));
    await waitFor(() => acceptedConnections(proxy.pid!, port) >= IN_FLIGHT - answered, {
      message: () => `${kind} accepted ${acceptedConnections(proxy.pid!, port)} connections for ${IN_FLIGHT - answered} requests not yet answered`,
    });
    t.log(`${IN_FLIGHT - answered} of ${IN_FLIGHT} requests in flight at SIGTERM`);
    stopped = stack.stop('SIGTERM');
    const answers = await Promise.all(requests);
    t.deepEqual(answers, Array.from({ length: IN_FLIGHT }, () => ({ status: 200, heroes: HEROES })), output());
    t.is(await stopped, 0, stack.output());
  });
}
