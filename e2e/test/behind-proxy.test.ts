/**
 * Both servers behind a proxy, as deploy/kubernetes ships them (TRUST_PROXY=1:
 * one ingress hop in front of the edge). What a client writes never becomes
 * its address, and nothing internal is reachable from outside:
 * - the client address is the right-most X-Forwarded-For entry that is not a
 *   trusted proxy: rotating the left entries (`10.9.<i>.1, 198.51.100.7`)
 *   neither escapes the login and registration limits nor adds a throttle row
 *   per spoofed value;
 * - the edge judges the normalised path: dot-segments, `%2e`, `%2f` and `\`
 *   cannot reach the authorization server's /metrics or /health/*;
 * - through a real nginx in front of the edge (X-Forwarded-For
 *   $proxy_add_x_forwarded_for, as any ingress sets it), /metrics is not served.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@heroes/test-kit';
import { parseProxyTrust } from '@heroes/platform';
import { exchange, freePort, spawnProcess, type SpawnedProcess } from '@heroes/test-kit';
import { startInProcessStack, type InProcessStack } from './_helpers/in-process-stack.ts';
import { PASSWORD_CLIENT_ID, registerPasswordClient } from './_helpers/password-client.ts';

const LOGIN_ADDRESS_LIMIT = 5;
const REGISTER_LIMIT = 3;
const nginxPath = process.env['NGINX_PATH'] ?? '/usr/sbin/nginx';

let database: TestDatabase;
let stack: InProcessStack;
let nginx: SpawnedProcess | undefined;
let nginxUrl = '';
let nginxDir = '';

test.before(async () => {
  database = await createTestDatabase();
  await registerPasswordClient(database.url);
  stack = await startInProcessStack(
    database.url,
    // The account limit out of the way: each guess names another account, so only the address limit can answer 429.
    { loginAddressFailures: LOGIN_ADDRESS_LIMIT, loginAccountFailures: 1_000, loginRefusalDelayMs: 0 },
    // As deploy/kubernetes/config.yaml sets it: TRUST_PROXY=1.
    { trustProxy: parseProxyTrust('1'), registerAddressLimit: REGISTER_LIMIT },
  );
  nginxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'heroes-nginx-'));
  const port = await freePort();
  fs.writeFileSync(path.join(nginxDir, 'nginx.conf'), nginxConfig(port, stack.edge, nginxDir));
  nginx = await spawnProcess(nginxPath, ['-p', nginxDir, '-c', path.join(nginxDir, 'nginx.conf'), '-g', 'daemon off;'], {
    ready: /start worker process/,
  });
  nginxUrl = `http://127.0.0.1:${port}`;
});

test.after.always(async () => {
  await nginx?.stop('SIGQUIT');
  await stack?.close();
  await database?.drop();
  if (nginxDir) fs.rmSync(nginxDir, { recursive: true, force: true });
});

/** An ingress as Kubernetes' ingress-nginx configures one: the client address appended to X-Forwarded-For. */
function nginxConfig(port: number, upstream: string, dir: string): string {
  return `worker_processes 1;
pid ${dir}/nginx.pid;
error_log stderr notice;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass ${upstream};
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
    }
  }
}
`;
}

const spoofed = (i: number) => `10.9.${i}.1, 198.51.100.7`;

test.serial('rotating the left X-Forwarded-For entries: the login limit counts one address, one throttle row', async (t) => {
  const statuses: number[] = [];
  for (let i = 0; i < 20; i++) {
    const res = await fetch(`${stack.edge}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': spoofed(i) },
      body: new URLSearchParams({ grant_type: 'password', client_id: PASSWORD_CLIENT_ID, username: `nobody-${i}`, password: 'wrong-password-1' }),
    });
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  t.deepEqual(statuses, [...Array<number>(LOGIN_ADDRESS_LIMIT).fill(400), ...Array<number>(20 - LOGIN_ADDRESS_LIMIT).fill(429)]);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ key: string }>("SELECT key FROM login_throttles WHERE key LIKE 'address:%'");
    t.deepEqual(rows.map((row) => row.key), ['address:198.51.100.7']);
  } finally {
    await client.end();
  }
});

test.serial('rotating the left X-Forwarded-For entries: the registration limit counts one address', async (t) => {
  const statuses: number[] = [];
  for (let i = 0; i < 8; i++) {
    const res = await fetch(`${stack.edge}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': spoofed(i) },
      body: JSON.stringify({ username: `spoofer-${i}`, password: 'hero-password-1' }),
    });
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  t.deepEqual(statuses, [...Array<number>(REGISTER_LIMIT).fill(200), ...Array<number>(8 - REGISTER_LIMIT).fill(429)]);
});

test.serial('through nginx, rotating the X-Forwarded-For a client sends: the registration limit counts the address nginx saw', async (t) => {
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    const res = await fetch(`${nginxUrl}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.9.${i}.1` },
      body: JSON.stringify({ username: `through-nginx-${i}`, password: 'hero-password-1' }),
    });
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  t.deepEqual(statuses, [...Array<number>(REGISTER_LIMIT).fill(200), ...Array<number>(6 - REGISTER_LIMIT).fill(429)]);
});

for (const target of ['/auth/../metrics', '/auth/%2e%2e/metrics', '/auth/%2E%2E/metrics', '/.well-known/../metrics', '/auth/../health/ready',
  '/auth/..%2fmetrics', '/auth/..%2Fhealth/live', '/auth\\..\\metrics', '/auth/.%2e/health/ready', '/auth/x/../../metrics']) {
  test(`GET ${target} through the edge does not reach the authorization server's own endpoints`, async (t) => {
    const res = await exchange(Number(new URL(stack.edge).port), `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`, { end: false });
    t.regex(res.text, /^HTTP\/1\.1 404 /, res.text.slice(0, 200));
    t.notRegex(res.text, /server="auth-server"|process_cpu|"checks"/);
  });
}

test('the edge forwards the path it judged: /auth/x/../token is /auth/token', async (t) => {
  const body = 'client_id=tour-of-heroes&grant_type=unknown';
  const res = await exchange(
    Number(new URL(stack.edge).port),
    `POST /auth/x/../token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    { end: false },
  );
  t.regex(res.text, /^HTTP\/1\.1 400 /, res.text.slice(0, 200));
  t.regex(res.text, /unsupported_grant_type/);
});

test('through nginx in front of the edge, /metrics is not served', async (t) => {
  const res = await fetch(`${nginxUrl}/metrics`);
  const text = await res.text();
  t.not(res.status, 200);
  t.notRegex(text, /server="resource-server"/);
  // The proxy itself works: the public routes answer through it.
  t.is((await fetch(`${nginxUrl}/openapi.json`)).status, 200);
});

test('through nginx, a client naming a loopback or allowed address in X-Forwarded-For still gets no /metrics', async (t) => {
  for (const claimed of ['127.0.0.1', '10.0.0.5', '::1']) {
    const res = await fetch(`${nginxUrl}/metrics`, { headers: { 'x-forwarded-for': claimed } });
    t.not(res.status, 200, claimed);
    t.notRegex(await res.text(), /server="resource-server"/);
  }
});
