/**
 * `npm start`, the whole service on one machine: settings and ports checked first (one line per problem, exit 1); both
 * servers spawned to load while DATABASE_URL or the embedded server starts (migrated only when needed), supervised
 * (start/supervisor.ts); the banner once both are ready. On a stop signal the edge drains first, then the authorization
 * server and the database; servers take their stop over IPC (docs/operations.md, "Stopping").
 */
import path from 'node:path';
import { applyMigrations, hasPendingMigrations } from '@heroes/db';
import { dataDir, removeRuntimeFile, writeRuntimeFile } from '@heroes/platform/local-state';
import { repoRoot } from './repo-root.ts';
import { resolveDatabaseUrl } from '@heroes/embedded-postgres';
import { formatBanner } from './start/banner.ts';
import { unavailablePorts } from './start/check-ports.ts';
import { PRODUCTION_RUNTIME_ENV } from './start/production-runtime.ts';
import { checkEnvironment, startValues } from './start/settings.ts';
import { Supervisor } from './start/supervisor.ts';
import { waitUntilReady } from './start/wait-until-answering.ts';

const say = (line: string) => console.error(`[start] ${line}`);

const problems = checkEnvironment(process.env);
if (problems.length > 0) {
  for (const problem of problems) say(problem);
  process.exit(1);
}
// One public door: the edge (PORT) is the only way in; the authorization server listens on loopback unless AUTH_HOST says otherwise.
const { port, authPort, shutdownTimeoutMs, publicBaseUrl, authHost, host, authServerUrl, dataDir: dataDirSetting, databaseDirectUrl } = startValues(process.env);
const taken = await unavailablePorts([
  { name: 'PORT', host, port },
  { name: 'AUTH_PORT', host: authHost, port: authPort },
]);
if (taken.length > 0) {
  for (const problem of taken) say(problem);
  process.exit(1);
}

const env: NodeJS.ProcessEnv = {
  // As the production image: two malloc arenas, not one per thread, and blocks of 32 KB and more mapped (docs/performance.md, Memory).
  ...PRODUCTION_RUNTIME_ENV,
  ...process.env,
  PORT: String(port),
  AUTH_PORT: String(authPort),
  AUTH_HOST: authHost,
  AUTH_SERVER_URL: authServerUrl,
  PUBLIC_BASE_URL: publicBaseUrl,
};
delete env.DATABASE_URL;
// The servers load their modules while the database starts; DATABASE_URL is handed over once it is ready and migrated.
let handOver: (environment: Record<string, string>) => void = () => {};
let cancelHandOver: (reason: Error) => void = () => {};
const handover = new Promise<Record<string, string>>((resolve, reject) => {
  handOver = resolve;
  cancelHandOver = reject;
});
handover.catch(() => {}); // rejected only when stopping
let stopping = false;

function supervise(name: string, loadFirst: string, entry: string): Supervisor {
  // Tracing, when an OTLP endpoint is set, loads before the server's modules (as in the image: docs/operations.md, "Tracing");
  // AsyncLocalStorage without promise hooks, as the image's NODE_OPTIONS (docs/performance.md).
  const registerTracing = path.join(repoRoot, path.dirname(entry), 'register-tracing.ts');
  const supervisor = new Supervisor({
    name,
    command: process.execPath,
    args: ['--experimental-async-context-frame', '--import', 'tsx', '--import', registerTracing, path.join(repoRoot, 'scripts/start/load-then-run.ts'), path.join(repoRoot, loadFirst), path.join(repoRoot, entry)],
    env,
    cwd: repoRoot,
    log: say,
    onGiveUp: () => void stop(1),
    // The server drains for up to SHUTDOWN_TIMEOUT_MS, then closes its pools.
    killAfterMs: shutdownTimeoutMs + 5_000,
    environment: handover,
  });
  supervisor.start();
  return supervisor;
}

async function stop(exitCode: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  for (const supervisor of [resourceServer, authServer]) supervisor.holdRestarts();
  cancelHandOver(new Error('stopping'));
  // The edge first: it stops taking requests and finishes those it has,
  // which may still need the authorization server.
  await resourceServer.stop();
  await authServer.stop();
  // Stopped while the embedded server was still starting: wait for it, then stop it.
  await database.then((resolved) => resolved.release(), () => {});
  process.exit(exitCode);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(0));
// `kill <npm pid>` ends npm and its shell without signalling us: when we are
// orphaned (our parent changes), stop as if told to.
const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid) void stop(0);
}, 500).unref();

const authServer = supervise('auth-server', 'packages/auth-server/src/create-auth-server.ts', 'packages/auth-server/src/main.ts');
const resourceServer = supervise('resource-server', 'packages/resource-server/src/create-resource-server.ts', 'packages/resource-server/src/main.ts');

const database = resolveDatabaseUrl({ log: say, adoptOrphan: true });
database.catch(() => {}); // reported below; stop() waits on it too
let databaseUrl: string;
try {
  const resolved = await database;
  databaseUrl = resolved.url;
  say(resolved.source === 'embedded'
    ? `using the embedded PostgreSQL server at ${new URL(resolved.url).host} (data in ${path.join(dataDir, 'postgres')})`
    : `using DATABASE_URL (${new URL(resolved.url).host})`);
  // The `auth` CLI finds this database through the data folder's runtime file (0600), gone when we exit.
  writeRuntimeFile(dataDir, { pid: process.pid, databaseUrl: resolved.url, source: resolved.source, publicBaseUrl });
  process.on('exit', () => removeRuntimeFile(dataDir));
  // The migration command is a process of its own (about a second): only when a migration may be missing.
  // Migrations need a session of their own: DATABASE_DIRECT_URL when DATABASE_URL is a transaction pooler's.
  const migrationUrl = resolved.source === 'embedded' ? resolved.url : (databaseDirectUrl ?? resolved.url);
  if (await hasPendingMigrations(migrationUrl)) await applyMigrations(migrationUrl);
  say('database migrations are up to date');
} catch (err) {
  say(err instanceof Error ? err.message : String(err));
  await stop(1);
  throw err; // not reached: stop() exits
}
handOver({ DATABASE_URL: databaseUrl });

const ready = await Promise.all([
  waitUntilReady(`http://127.0.0.1:${authPort}`, () => stopping),
  waitUntilReady(`http://127.0.0.1:${port}`, () => stopping),
]);
if (!stopping && ready.every(Boolean)) {
  authServer.restartOnCrash = true;
  resourceServer.restartOnCrash = true;
  // On stderr with the [start] lines: stdout carries only the servers' JSON log lines (`npm start -s | jq`).
  console.error(await formatBanner({ publicBaseUrl, authPort, cliPrefix: cliPrefix(), databaseUrl }));
} else if (!stopping) {
  say('the servers did not become ready in time');
  void stop(1);
}

/** The setting the `auth` CLI needs to find this service's database (its runtime file in the data folder). */
function cliPrefix(): string {
  // The resolved folder: a relative HEROES_DATA_DIR would mean another one in another shell folder.
  return dataDirSetting ? `HEROES_DATA_DIR=${dataDir} ` : '';
}
