/**
 * Replicas as operators scale the service: several authorization servers and resource servers as real processes
 * on one database URL (a pooler's, say), sharing one keys file and one resource-server secret. Edge i talks to
 * authorization server i (modulo their count), so a request through one edge and the next through another also
 * crosses authorization servers. Every replica announces the same PUBLIC_BASE_URL (the first edge's).
 *
 * Usage:
 *   const replicas = await startReplicas({ databaseUrl: bouncer.url(db.name), directUrl: db.url, env: { DB_QUERY_TIMEOUT_MS: '3000' } });
 *   replicas.edges[1].url; replicas.auths[0].url;
 *   await replicas.stop();
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '@heroes/test-kit';
import { freePort, spawnProcess, type SpawnedProcess } from '@heroes/test-kit';

export interface Replica extends SpawnedProcess {
  name: string;
  url: string;
  port: number;
  /** The environment it was started with, to start it again. */
  env: NodeJS.ProcessEnv;
}

export interface Replicas {
  auths: Replica[];
  edges: Replica[];
  /** PUBLIC_BASE_URL of every replica: the first edge. */
  base: string;
  /** The environment common to every replica (DATABASE_URL, secrets, data dir), for the `auth` CLI too. */
  env: NodeJS.ProcessEnv;
  /** Stops one replica and starts it again with the same settings. */
  restart(replica: Replica): Promise<Replica>;
  stop(): Promise<void>;
}

export interface ReplicaOptions {
  /** What the servers get as DATABASE_URL. */
  databaseUrl: string;
  /** DATABASE_DIRECT_URL: the database itself, past any pooler (the revocation feed, migrations). */
  directUrl: string;
  auths?: number;
  edges?: number;
  /** Added to every replica's environment. */
  env?: NodeJS.ProcessEnv;
}

export const RESOURCE_SERVER_SECRET = 'replicas-resource-server-secret-0123456789';

export async function startReplicas(options: ReplicaOptions): Promise<Replicas> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'heroes-replicas-'));
  const authPorts = await Promise.all(Array.from({ length: options.auths ?? 2 }, () => freePort()));
  const edgePorts = await Promise.all(Array.from({ length: options.edges ?? 2 }, () => freePort()));
  const base = `http://127.0.0.1:${edgePorts[0]}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: options.databaseUrl,
    DATABASE_DIRECT_URL: options.directUrl,
    HEROES_DATA_DIR: dataDir,
    AUTH_KEYS_FILE: path.join(dataDir, 'auth-keys.json'),
    RESOURCE_SERVER_CLIENT_SECRET: RESOURCE_SERVER_SECRET,
    PUBLIC_BASE_URL: base,
    AUTH_HOST: '127.0.0.1',
    HOST: '127.0.0.1',
    BCRYPT_COST: '4',
    LOG_LEVEL: 'info',
    DB_CONNECT_TIMEOUT_MS: '20000',
    INTROSPECTION_TIMEOUT_MS: '30000',
    ...options.env,
  };
  const running: Replica[] = [];

  const start = async (name: string, entry: string, replicaEnv: NodeJS.ProcessEnv, port: number, ready: RegExp): Promise<Replica> => {
    const spawned = await spawnProcess(process.execPath, ['--import', 'tsx', path.join(repoRoot, entry), '--replica', name], {
      cwd: repoRoot,
      env: replicaEnv,
      inheritEnv: false,
      ready,
      timeoutMs: 150_000,
    });
    const replica: Replica = { ...spawned, name, url: `http://127.0.0.1:${port}`, port, env: replicaEnv };
    running.push(replica);
    return replica;
  };
  const startAuth = (index: number) => start(`auth-${index + 1}`, 'packages/auth-server/src/main.ts',
    { ...env, AUTH_PORT: String(authPorts[index]) }, authPorts[index]!, /authorization server listening/);
  const startEdge = (index: number) => start(`edge-${index + 1}`, 'packages/resource-server/src/main.ts',
    { ...env, PORT: String(edgePorts[index]), AUTH_SERVER_URL: `http://127.0.0.1:${authPorts[index % authPorts.length]}` },
    edgePorts[index]!, /resource server listening/);

  const stop = async () => {
    await Promise.all(running.filter((r) => r.name.startsWith('edge')).map((r) => r.stop()));
    await Promise.all(running.filter((r) => r.name.startsWith('auth')).map((r) => r.stop()));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    // The first authorization server writes the shared keys file; the others read it.
    const auths = [await startAuth(0)];
    auths.push(...await Promise.all(authPorts.slice(1).map((_, i) => startAuth(i + 1))));
    const edges = await Promise.all(edgePorts.map((_, i) => startEdge(i)));
    const restart = async (replica: Replica) => {
      await replica.stop();
      running.splice(running.indexOf(replica), 1);
      const ready = replica.name.startsWith('auth') ? /authorization server listening/ : /resource server listening/;
      const entry = replica.name.startsWith('auth') ? 'packages/auth-server/src/main.ts' : 'packages/resource-server/src/main.ts';
      const again = await start(replica.name, entry, replica.env, replica.port, ready);
      for (const list of [auths, edges]) if (list.includes(replica)) list[list.indexOf(replica)] = again;
      return again;
    };
    return { auths, edges, base, env, restart, stop };
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
}
