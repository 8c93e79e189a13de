/**
 * `npm start`: the whole service on one machine.
 *
 * 1. DATABASE_URL, or the embedded PostgreSQL server (data kept in .data/);
 * 2. pending migrations applied;
 * 3. the authorization server (AUTH_PORT, default 8889) and the resource
 *    server (PORT, default 8888) started as two separate processes;
 * 4. Ctrl-C (or SIGTERM, or the end of the npm process that ran us) stops
 *    both, then the embedded server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { applyMigrations, repoRoot, resolveDatabaseUrl } from '@heroes/db';

const port = Number(process.env.PORT ?? 8888);
const authPort = Number(process.env.AUTH_PORT ?? 8889);
const publicBaseUrl = process.env.PUBLIC_BASE_URL ?? `http://localhost:${port}`;
const say = (line: string) => console.error(`[start] ${line}`);

const database = await resolveDatabaseUrl({ log: say });
say(database.source === 'embedded'
  ? `using the embedded PostgreSQL server at ${new URL(database.url).host} (data in .data/postgres)`
  : `using DATABASE_URL (${new URL(database.url).host})`);

try {
  await applyMigrations(database.url);
  say('database migrations are up to date');
} catch (err) {
  say(err instanceof Error ? err.message : String(err));
  await database.release();
  process.exit(1);
}

const env = {
  ...process.env,
  DATABASE_URL: database.url,
  PORT: String(port),
  AUTH_PORT: String(authPort),
  AUTH_SERVER_URL: process.env.AUTH_SERVER_URL ?? `http://127.0.0.1:${authPort}`,
  PUBLIC_BASE_URL: publicBaseUrl,
};
const children = new Map<string, ChildProcess>();
let stopping = false;

function startServer(name: string, entry: string): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, entry)], { stdio: 'inherit', env, cwd: repoRoot });
  children.set(name, child);
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (!stopping) {
      say(`${name} exited (${signal ?? `code ${code}`}); stopping`);
      void stop(1);
    }
  });
  return child;
}

async function stop(exitCode: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  await Promise.all([...children.values()].map((child) => new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => { clearTimeout(timer); resolve(); });
    child.kill('SIGTERM');
  })));
  await database.release();
  process.exit(exitCode);
}

process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
// `kill <npm pid>` ends npm and its shell without signalling us: when we are
// orphaned (our parent changes), stop as if told to.
const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid) void stop(0);
}, 500).unref();

startServer('auth-server', 'packages/auth-server/src/main.ts');
startServer('resource-server', 'packages/resource-server/src/main.ts');

await Promise.all([waitForPort(authPort), waitForPort(port)]);
if (!stopping) {
  console.log(`
Heroes service is running at ${publicBaseUrl}
  authorization server (own process): http://127.0.0.1:${authPort}

Register an OAuth client${database.source === 'env' ? ' (in a shell with the same DATABASE_URL)' : ''}:
  ${cliPrefix()}npx auth add-client --id my-app --secret my-secret

Then:
  curl -X POST ${publicBaseUrl}/register -H 'Content-Type: application/json' -d '{"username":"bob","password":"secret"}'
  curl -X POST ${publicBaseUrl}/auth/token -u my-app:my-secret -d 'grant_type=password&username=bob&password=secret'

Press Ctrl-C to stop.`);
}

/** The settings the `auth` CLI needs to reach the same embedded server (never a password). */
function cliPrefix(): string {
  if (database.source === 'env') return '';
  return ['HEROES_DATA_DIR', 'EMBEDDED_PG_PORT']
    .filter((name) => process.env[name])
    .map((name) => `${name}=${process.env[name]} `)
    .join('');
}

async function waitForPort(target: number): Promise<void> {
  for (let attempt = 0; attempt < 600 && !stopping; attempt++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port: target });
      socket.once('connect', () => { socket.destroy(); resolve(true); });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
