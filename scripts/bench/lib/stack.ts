/**
 * The service under test: BENCH_BASE_URL (a running service; then DATABASE_URL, BENCH_AUTH_URL and
 * BENCH_RS_CLIENT_SECRET name its parts), else a fresh database with both servers started here, as the production
 * image runs them: compiled (`npm run build` first), the image's NODE_OPTIONS, NODE_ENV production (BENCH_SOURCE=1:
 * the sources through tsx, as `npm start`). Environment for the servers applies (WORKERS, LOG_LEVEL).
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../repo-root.ts';
import { givenDatabaseUrl, resolveDatabaseUrl } from '@heroes/embedded-postgres';
import { loadSettings, SHARED_SETTINGS } from '@heroes/platform/settings';
import { createTestDatabase, type TestDatabase } from '@heroes/test-kit';
import { freePort, spawnNode, waitForPort } from './processes.ts';

export interface Stack {
  baseUrl: string;
  authUrl: string;
  databaseUrl: string;
  resourceServerClient: { id: string; secret?: string };
  /** Server processes, when started here (RSS figures need them). */
  pids: { resource?: number; auth?: number };
  /** The resource server's environment, when started here (variants of it use the same). */
  resourceEnv?: NodeJS.ProcessEnv;
  logDir: string;
  release(): Promise<void>;
}

export async function startStack(options: { cost: number; say: (line: string) => void; onExit: (message: string) => void }): Promise<Stack> {
  const { say } = options;
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'heroes-bench-'));
  const external = process.env.BENCH_BASE_URL;
  if (external) {
    const databaseUrl = givenDatabaseUrl();
    if (!databaseUrl) throw new Error('with BENCH_BASE_URL, set DATABASE_URL to the service database (the benchmark seeds it)');
    say(`using the running service at ${external}`);
    return {
      baseUrl: external.replace(/\/+$/, ''),
      authUrl: (process.env.BENCH_AUTH_URL ?? external).replace(/\/+$/, ''),
      databaseUrl,
      resourceServerClient: { id: loadSettings({ id: SHARED_SETTINGS.resourceServerClientId }, process.env).id, secret: process.env.BENCH_RS_CLIENT_SECRET },
      pids: {},
      logDir,
      release: async () => {},
    };
  }

  const server = await resolveDatabaseUrl({ log: say });
  process.env.DATABASE_URL = server.adminUrl; // createTestDatabase creates on this server
  const database: TestDatabase = await createTestDatabase();
  say(`fresh database ${database.name} on ${new URL(server.url).host} (${server.source})`);
  const [port, authPort] = [await freePort(), await freePort()];
  const baseUrl = `http://127.0.0.1:${port}`;
  const authUrl = `http://127.0.0.1:${authPort}`;
  const resourceServerClient = { id: 'resource-server', secret: crypto.randomBytes(24).toString('base64url') };
  const env = {
    // The bench registers a new user per request from one address: it measures hashing, not the limit (unless told otherwise).
    REGISTER_ADDRESS_LIMIT: '1000000000',
    // Likewise hero writes from the one bench user (the mixed load writes hundreds a second).
    HERO_WRITE_LIMIT: '1000000000',
    ...process.env,
    DATABASE_URL: database.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    AUTH_PORT: String(authPort),
    AUTH_HOST: '127.0.0.1',
    AUTH_SERVER_URL: authUrl,
    PUBLIC_BASE_URL: baseUrl,
    RESOURCE_SERVER_CLIENT_ID: resourceServerClient.id,
    RESOURCE_SERVER_CLIENT_SECRET: resourceServerClient.secret,
    BCRYPT_COST: String(options.cost),
  };
  const fromSource = process.env.BENCH_SOURCE === '1';
  if (!fromSource) build(say);
  const entry = serverEntry;
  const serverEnv = fromSource ? env : { ...env, NODE_ENV: 'production' };
  const auth = spawnNode('auth-server', entry('auth-server'), serverEnv, repoRoot, logDir, options.onExit);
  const resource = spawnNode('resource-server', entry('resource-server'), serverEnv, repoRoot, logDir, options.onExit);
  await Promise.all([waitForPort(authPort), waitForPort(port)]);
  say(`stack up at ${baseUrl} (${fromSource ? 'sources through tsx' : 'compiled, NODE_ENV=production'}; logs in ${logDir})`);
  return {
    baseUrl,
    authUrl,
    databaseUrl: database.url,
    resourceServerClient,
    pids: { resource: resource.pid, auth: auth.pid },
    resourceEnv: serverEnv,
    logDir,
    async release() {
      await database.drop().catch((err: unknown) => say(`could not drop ${database.name}: ${String(err)}`));
      await server.release();
    },
  };
}

/** The entry of `server` ('auth-server', 'resource-server') as the bench runs it: sources with BENCH_SOURCE=1, else compiled. */
export function serverEntry(server: string): string {
  return path.join(repoRoot, 'packages', server, process.env.BENCH_SOURCE === '1' ? 'src/main.ts' : 'dist/main.js');
}

/** `npm run build` (the compiled servers of the production image); fails the run with its output. */
function build(say: (line: string) => void): void {
  say('building the servers (npm run build)');
  const result = spawnSync('npm', ['run', 'build'], { cwd: repoRoot, encoding: 'utf8', env: process.env });
  if (result.status !== 0) throw new Error(`npm run build failed:\n${result.stdout}${result.stderr}`);
}
