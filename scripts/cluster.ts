/**
 * `npm run cluster`: the service scaled out on this machine, replicas sharing everything through PostgreSQL. Settings
 * and ports checked first; DATABASE_URL or the embedded server, migrated; CLUSTER_AUTH_REPLICAS and
 * CLUSTER_EDGE_REPLICAS supervised servers on one keys file and client secret; HAProxy in front (haproxy-config.ts);
 * on stop edges drain first, then auth servers, HAProxy, the database. Command lines end with `--replica <name>`.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyMigrations } from '@heroes/db';
import { repoRoot } from './repo-root.ts';
import { resolveDatabaseUrl } from '@heroes/embedded-postgres';
import { loadSettings, SettingsError, type SettingValues } from '@heroes/platform/settings';
import { freePort } from '@heroes/test-kit/free-port'; // free ports from the test kit, without loading the browser
import { findHaproxy } from './cluster/find-haproxy.ts';
import { haproxyConfig, type Backend } from './cluster/haproxy-config.ts';
import { CLUSTER_SETTINGS } from './cluster/settings.ts';
import { unavailablePorts, type Address } from './start/check-ports.ts';
import { Supervisor } from './start/supervisor.ts';
import { waitUntilReady } from './start/wait-until-answering.ts';

const say = (line: string) => console.error(`[cluster] ${line}`);
const haproxy = findHaproxy();
if (!haproxy) {
  say('haproxy not found: install it (apt-get install haproxy) or set HAPROXY_PATH');
  process.exit(1);
}
let settings: SettingValues<typeof CLUSTER_SETTINGS>;
try {
  settings = loadSettings(CLUSTER_SETTINGS, process.env);
} catch (err) {
  for (const problem of err instanceof SettingsError ? err.problems : [String(err)]) say(problem);
  process.exit(1);
}
const { port: edgePort, authPort, publicBaseUrl } = settings;
const replicas = { auth: settings.authReplicas, edge: settings.edgeReplicas };
const problems = portProblems();
if (problems.length === 0) problems.push(...(await unavailablePorts(listenAddresses())));
if (problems.length > 0) {
  for (const problem of problems) say(problem);
  process.exit(1);
}

/** Replica counts that disagree with the port lists, and a port named twice. */
function portProblems(): string[] {
  const problems: string[] = [];
  for (const [kind, ports, count] of [['AUTH', settings.authReplicaPorts, replicas.auth], ['EDGE', settings.edgeReplicaPorts, replicas.edge]] as const) {
    if (ports && ports.length !== count) problems.push(`CLUSTER_${kind}_PORTS names ${ports.length} ports for CLUSTER_${kind}_REPLICAS=${count}: give one port per replica`);
  }
  const named = listenAddresses().filter((address) => address.port !== 0);
  for (const [i, address] of named.entries()) {
    const first = named.findIndex((other) => other.port === address.port);
    if (first < i) problems.push(`${address.name}=${address.port}: the same port as ${named[first]!.name}`);
  }
  return problems;
}

/** Every address this command listens on: HAProxy's two frontends and the replicas with a set port (all on loopback). */
function listenAddresses(): Address[] {
  const host = '127.0.0.1';
  return [
    { name: 'PORT', host, port: edgePort },
    { name: 'AUTH_PORT', host, port: authPort },
    ...(settings.authReplicaPorts ?? []).map((port) => ({ name: 'CLUSTER_AUTH_PORTS', host, port })),
    ...(settings.edgeReplicaPorts ?? []).map((port) => ({ name: 'CLUSTER_EDGE_PORTS', host, port })),
  ];
}

const database = await resolveDatabaseUrl({ log: say }).catch((err: unknown) => {
  say(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
await applyMigrations(database.url).catch(async (err: unknown) => {
  say(err instanceof Error ? err.message : String(err));
  await database.release();
  process.exit(1);
});

const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'heroes-cluster-'));
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATABASE_URL: database.url,
  PUBLIC_BASE_URL: publicBaseUrl,
  AUTH_SERVER_URL: `http://127.0.0.1:${authPort}`,
  AUTH_HOST: '127.0.0.1',
  HOST: '127.0.0.1',
  AUTH_KEYS_FILE: settings.keysFile,
  RESOURCE_SERVER_CLIENT_SECRET: settings.clientSecret ?? crypto.randomBytes(32).toString('base64url'),
  WORKERS: '1',
};
let stopping = false;

function replica(kind: 'auth' | 'edge', index: number, port: number): Supervisor {
  const name = `${kind}-${index + 1}`;
  const server = kind === 'auth' ? 'packages/auth-server/src' : 'packages/resource-server/src';
  const supervisor = new Supervisor({
    name,
    command: process.execPath,
    // register-tracing.ts first and AsyncLocalStorage without promise hooks, as npm start and the image (docs/operations.md, "Tracing").
    args: ['--experimental-async-context-frame', '--import', 'tsx', '--import', path.join(repoRoot, server, 'register-tracing.ts'), path.join(repoRoot, server, 'main.ts'), '--replica', name],
    env: { ...env, ...(kind === 'auth' ? { AUTH_PORT: String(port) } : { PORT: String(port) }) },
    cwd: repoRoot,
    log: say,
    onGiveUp: () => void stop(1),
    killAfterMs: settings.shutdownTimeoutMs + 5_000,
  });
  supervisor.start();
  return supervisor;
}

const backends = (count: number, ports: number[] | undefined): Promise<Backend[]> =>
  Promise.all(Array.from({ length: count }, async (_, i) => ({ host: '127.0.0.1', port: ports?.[i] ?? (await freePort()) })));
const authBackends = await backends(replicas.auth, settings.authReplicaPorts);
const edgeBackends = await backends(replicas.edge, settings.edgeReplicaPorts);
const configFile = path.join(stateDir, 'haproxy.cfg');
fs.writeFileSync(configFile, haproxyConfig({ edgePort, authPort, edges: edgeBackends, auths: authBackends }));
const balancer = spawn(haproxy, ['-f', configFile, '-db'], { stdio: ['ignore', 'inherit', 'inherit'] });
balancer.once('exit', (code, signal) => {
  if (!stopping) {
    say(`haproxy exited (${signal ?? `code ${code}`})`);
    void stop(1);
  }
});

const auths = authBackends.map((b, i) => replica('auth', i, b.port));
const edges = edgeBackends.map((b, i) => replica('edge', i, b.port));

async function stop(exitCode: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  // No replica restarts once a stop has begun; the replicas ignore the group's Ctrl-C and stop when told.
  for (const supervisor of [...edges, ...auths]) supervisor.holdRestarts();
  await Promise.all(edges.map((s) => s.stop()));
  await Promise.all(auths.map((s) => s.stop()));
  balancer.kill('SIGTERM');
  await database.release();
  fs.rmSync(stateDir, { recursive: true, force: true });
  process.exit(exitCode);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

const ready = await Promise.all([
  ...authBackends.map((b) => waitUntilReady(`http://127.0.0.1:${b.port}`, () => stopping)),
  ...edgeBackends.map((b) => waitUntilReady(`http://127.0.0.1:${b.port}`, () => stopping)),
  waitUntilReady(`http://127.0.0.1:${edgePort}`, () => stopping),
]);
if (stopping) await new Promise(() => {});
if (!ready.every(Boolean)) {
  say('the replicas did not become ready in time');
  await stop(1);
}
for (const supervisor of [...auths, ...edges]) supervisor.restartOnCrash = true;
console.log(`
Heroes cluster is running at ${publicBaseUrl} (HAProxy on 127.0.0.1:${edgePort})
  authorization servers: ${authBackends.map((b, i) => `auth-${i + 1} http://127.0.0.1:${b.port}`).join(', ')} (balanced on 127.0.0.1:${authPort})
  resource servers:      ${edgeBackends.map((b, i) => `edge-${i + 1} http://127.0.0.1:${b.port}`).join(', ')}
replicas ${JSON.stringify({ auth: authBackends.map((b) => b.port), edge: edgeBackends.map((b) => b.port) })}

Press Ctrl-C to stop.`);

