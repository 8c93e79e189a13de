/**
 * `npm run bench`: throughput of the service, measured with autocannon.
 *
 * 1. The stack: BENCH_BASE_URL (a running service; seeding the OAuth client
 *    then needs DATABASE_URL, or BENCH_CLIENT_ID/BENCH_CLIENT_SECRET of an
 *    existing client), else a fresh database on DATABASE_URL's server (or
 *    the embedded PostgreSQL server) with both servers started here as
 *    their own processes (logs in the OS temp folder).
 * 2. Seed: a confidential client, a user (POST /register), 10 heroes, a token.
 * 3. Measure (after a warm-up):
 *    - GET /heroes with the token: 50 connections, BENCH_DURATION s (10);
 *      target ≥ 4,000 req/s and p99 < 25 ms on the 2-core dev machine;
 *    - POST /auth/token (password grant, through the edge);
 *    - POST /register (a new username per request);
 *    - raw bcrypt compares/s at the same cost (BCRYPT_COST, default 10),
 *      with as many in flight as libuv has threads, in this process.
 *    Token and register are bounded by bcrypt: compare their req/s to the
 *    raw figure.
 * Environment passed to the servers started here applies (e.g. WORKERS=2
 * runs the resource server as two cluster workers, LOG_LEVEL).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import bcrypt from 'bcrypt';
import { createDb, repoRoot, resolveDatabaseUrl } from '@heroes/db';
import { createTestDatabase, type TestDatabase } from '@heroes/db/testing';

interface Histogram { average: number; mean: number; p50: number; p99: number; max: number; total: number }
interface AutocannonResult {
  requests: Histogram;
  latency: Histogram;
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
}
interface AutocannonRequest { method?: string; path?: string; headers?: Record<string, string>; body?: string; setupRequest?: (req: AutocannonRequest) => AutocannonRequest }
interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  requests?: AutocannonRequest[];
}
const autocannon = createRequire(import.meta.url)('autocannon') as (options: AutocannonOptions) => Promise<AutocannonResult>;

const cost = Number(process.env.BCRYPT_COST ?? 10);
const duration = Number(process.env.BENCH_DURATION ?? 10);
const say = (line: string) => console.error(`[bench] ${line}`);

const children: ChildProcess[] = [];
let database: TestDatabase | undefined;
let releaseServer: () => Promise<void> = async () => {};

async function main(): Promise<void> {
  const { baseUrl, databaseUrl } = await startStack();
  const client = await seedClient(databaseUrl);
  const user = { username: `bench-${crypto.randomBytes(4).toString('hex')}`, password: 'bench password' };
  await expectOk(await post(`${baseUrl}/register`, { 'content-type': 'application/json' }, JSON.stringify(user)), 'register');
  const token = await getToken(baseUrl, client, user);
  const auth = { authorization: `Bearer ${token}` };
  for (let i = 1; i <= 10; i++) {
    const res = await post(`${baseUrl}/heroes`, { ...auth, 'content-type': 'application/json' }, JSON.stringify({ name: `Bench hero ${i} ${crypto.randomBytes(3).toString('hex')}` }));
    await expectOk(res, 'create hero');
  }

  say('warming up GET /heroes');
  await autocannon({ url: `${baseUrl}/heroes`, connections: 50, duration: 3, headers: auth });
  say(`GET /heroes: 50 connections, ${duration} s`);
  const heroes = await autocannon({ url: `${baseUrl}/heroes`, connections: 50, duration, headers: auth });

  const tokenForm = new URLSearchParams({ grant_type: 'password', ...user }).toString();
  say(`POST /auth/token: 8 connections, ${duration} s`);
  const tokens = await autocannon({
    url: `${baseUrl}/auth/token`,
    connections: 8,
    duration,
    method: 'POST',
    headers: { authorization: basic(client.id, client.secret), 'content-type': 'application/x-www-form-urlencoded' },
    body: tokenForm,
  });

  say(`POST /register: 8 connections, ${duration} s`);
  let n = 0;
  const prefix = crypto.randomBytes(4).toString('hex');
  const registers = await autocannon({
    url: `${baseUrl}/register`,
    connections: 8,
    duration,
    requests: [{
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      setupRequest: (req) => ({ ...req, body: JSON.stringify({ username: `bench-${prefix}-${n++}`, password: 'bench password' }) }),
    }],
  });

  await new Promise((resolve) => setTimeout(resolve, 1_000)); // let in-flight hashes finish
  say(`raw bcrypt compares at cost ${cost}`);
  const compares = await bcryptComparesPerSecond(cost, 3_000);

  const row = (name: string, r: AutocannonResult) =>
    `${name.padEnd(18)} ${r.requests.average.toFixed(0).padStart(7)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   non-2xx ${r.non2xx}   errors ${r.errors + r.timeouts}`;
  const heroesOk = heroes.requests.average >= 4_000 && heroes.latency.p99 < 25;
  console.log(`
Heroes service benchmark (${os.cpus().length} CPUs, Node ${process.version}, bcrypt cost ${cost})
${row('GET /heroes', heroes)}   ${heroesOk ? 'meets' : 'MISSES'} target (>= 4000 req/s, p99 < 25 ms)
${row('POST /auth/token', tokens)}
${row('POST /register', registers)}
raw bcrypt         ${compares.toFixed(1).padStart(7)} compares/s at cost ${cost} (libuv pool ${process.env.UV_THREADPOOL_SIZE ?? 4}, same machine, same run)
`);
}

async function startStack(): Promise<{ baseUrl: string; databaseUrl?: string }> {
  const external = process.env.BENCH_BASE_URL;
  if (external) {
    say(`using the running service at ${external}`);
    return { baseUrl: external.replace(/\/+$/, ''), databaseUrl: process.env.DATABASE_URL };
  }
  const server = await resolveDatabaseUrl({ log: say });
  releaseServer = server.release;
  process.env.DATABASE_URL = server.url; // createTestDatabase creates on this server
  database = await createTestDatabase();
  say(`fresh database ${database.name} on ${new URL(server.url).host} (${server.source})`);
  const [port, authPort] = [await freePort(), await freePort()];
  const baseUrl = `http://127.0.0.1:${port}`;
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'heroes-bench-'));
  const env = {
    ...process.env,
    DATABASE_URL: database.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    AUTH_PORT: String(authPort),
    AUTH_HOST: '127.0.0.1',
    AUTH_SERVER_URL: `http://127.0.0.1:${authPort}`,
    PUBLIC_BASE_URL: baseUrl,
    RESOURCE_SERVER_CLIENT_SECRET: crypto.randomBytes(24).toString('base64url'),
    BCRYPT_COST: String(cost),
  };
  for (const [name, entry] of [['auth-server', 'packages/auth-server/src/main.ts'], ['resource-server', 'packages/resource-server/src/main.ts']] as const) {
    const log = fs.openSync(path.join(logDir, `${name}.log`), 'w');
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, entry)], { env, cwd: repoRoot, stdio: ['ignore', log, log] });
    child.on('exit', (code, signal) => {
      if (!stopping) {
        say(`${name} exited (${signal ?? code}); see ${logDir}/${name}.log`);
        void stop(1);
      }
    });
    children.push(child);
  }
  await Promise.all([waitForPort(authPort), waitForPort(port)]);
  say(`stack up at ${baseUrl} (logs in ${logDir})`);
  return { baseUrl, databaseUrl: database.url };
}

async function seedClient(databaseUrl: string | undefined): Promise<{ id: string; secret: string }> {
  if (process.env.BENCH_CLIENT_ID) return { id: process.env.BENCH_CLIENT_ID, secret: process.env.BENCH_CLIENT_SECRET ?? '' };
  if (!databaseUrl) throw new Error('with BENCH_BASE_URL, set DATABASE_URL (to seed a client) or BENCH_CLIENT_ID/BENCH_CLIENT_SECRET');
  const client = { id: `bench-${crypto.randomBytes(4).toString('hex')}`, secret: crypto.randomBytes(16).toString('hex') };
  const db = createDb(databaseUrl);
  try {
    await db.oAuthClient.create({ data: { id: client.id, hashedSecret: await bcrypt.hash(client.secret, cost) } });
  } finally {
    await db.$disconnect();
  }
  return client;
}

async function getToken(baseUrl: string, client: { id: string; secret: string }, user: { username: string; password: string }): Promise<string> {
  const res = await post(`${baseUrl}/auth/token`, {
    authorization: basic(client.id, client.secret),
    'content-type': 'application/x-www-form-urlencoded',
  }, new URLSearchParams({ grant_type: 'password', ...user }).toString());
  const body = (await expectOk(res, 'token')) as { access_token: string };
  return body.access_token;
}

async function bcryptComparesPerSecond(rounds: number, ms: number): Promise<number> {
  const hash = await bcrypt.hash('bench password', rounds);
  const parallel = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  const until = performance.now() + ms;
  let done = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (performance.now() < until) {
      await bcrypt.compare('bench password', hash);
      done++;
    }
  }));
  return done / ((performance.now() - started) / 1000);
}

function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

function post(url: string, headers: Record<string, string>, body: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers, body });
}

async function expectOk(res: Response, what: string): Promise<unknown> {
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${what} failed: ${res.status} ${text}`);
  return JSON.parse(text);
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForPort(port: number): Promise<void> {
  for (let attempt = 0; attempt < 600 && !stopping; attempt++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port });
      socket.once('connect', () => { socket.destroy(); resolve(true); });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!stopping) throw new Error(`nothing listens on port ${port}`);
}

let stopping = false;
async function stop(code: number): Promise<never> {
  stopping = true;
  await Promise.all(children.map((child) => new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => { clearTimeout(timer); resolve(); });
    child.kill('SIGTERM');
  })));
  await database?.drop().catch((err: unknown) => say(`could not drop ${database?.name}: ${String(err)}`));
  await releaseServer();
  process.exit(code);
}

process.on('SIGINT', () => void stop(130));
main().then(() => stop(0), (err: unknown) => {
  console.error(err);
  void stop(1);
});
