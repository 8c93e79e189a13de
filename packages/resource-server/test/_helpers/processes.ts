/**
 * Real processes for end-to-end tests: the authorization server and
 * resource servers started as `node --import tsx <package>/src/main.ts`,
 * each waited for until it logs that it listens.
 */
import path from 'node:path';
import { createDb, type PrismaClient } from '@heroes/db';
import { repoRoot } from '@heroes/test-kit';
import { createTestDatabase, type TestDatabase } from '@heroes/test-kit';
import { checkAnswersOf, freePort, spawnProcess, type SpawnedProcess } from '@heroes/test-kit';
import { createOpenApiDocument } from '../../src/index.ts';

export { freePort } from '@heroes/test-kit';

export interface ChildServer extends SpawnedProcess {
  url: string;
}

/** Time limits for a busy test machine; a test of a limit sets its own. */
const PATIENT = { DB_CONNECT_TIMEOUT_MS: '20000', DB_QUERY_TIMEOUT_MS: '20000' };

async function startChild(entry: string, env: Record<string, string>, port: number, ready: RegExp): Promise<ChildServer> {
  const server = await spawnProcess(process.execPath, ['--import', 'tsx', path.join(repoRoot, entry)], {
    cwd: repoRoot,
    env: { LOG_LEVEL: 'info', ...env },
    ready,
    // Two cores shared by several test runs: a cold start under that load has taken over a minute.
    timeoutMs: 150_000,
  });
  return { ...server, url: `http://127.0.0.1:${port}` };
}

/** The authorization server process on `port`, issuing URLs for `publicBaseUrl`. */
export async function startAuthProcess(databaseUrl: string, port: number, publicBaseUrl: string, env: Record<string, string> = {}) {
  return startChild(
    'packages/auth-server/src/main.ts',
    { DATABASE_URL: databaseUrl, AUTH_PORT: String(port), AUTH_HOST: '127.0.0.1', PUBLIC_BASE_URL: publicBaseUrl, BCRYPT_COST: '4', ...PATIENT, ...env },
    port,
    /authorization server listening/,
  );
}

/** A resource-server process on `port`, in front of the authorization server at authServerUrl. */
export async function startResourceProcess(databaseUrl: string, port: number, authServerUrl: string, env: Record<string, string> = {}) {
  // Every answer a test receives from this edge must match /openapi.json (test-kit's checkAnswersOf).
  checkAnswersOf(`http://127.0.0.1:${port}`, createOpenApiDocument());
  return startChild(
    'packages/resource-server/src/main.ts',
    {
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      AUTH_SERVER_URL: authServerUrl,
      RESOURCE_SERVER_CLIENT_SECRET: 'e2e-resource-server-secret',
      BCRYPT_COST: '4',
      ...PATIENT,
      INTROSPECTION_TIMEOUT_MS: '30000',
      ...env,
    },
    port,
    /resource server listening/,
  );
}

/** A fresh database with the authorization server and one resource server in front of it. */
export interface ProcessStack {
  database: TestDatabase;
  db: PrismaClient;
  auth: ChildServer;
  edge: ChildServer;
  /** Stops both processes, then drops the database. */
  stop(): Promise<void>;
}

/**
 * Usage:
 *   stack = await startProcessStack({ auth: { AUTH_MAX_BODY_BYTES: '4096' } });
 *   await request(`${stack.edge.url}/register`, ...);
 *   test.after.always(() => stack?.stop());
 */
export async function startProcessStack(env: { auth?: Record<string, string>; edge?: Record<string, string> } = {}): Promise<ProcessStack> {
  const database = await createTestDatabase();
  const db = createDb(database.url);
  let auth: ChildServer | undefined;
  let edge: ChildServer | undefined;
  const stop = async () => {
    await edge?.stop();
    await auth?.stop();
    await db.$disconnect();
    await database.drop();
  };
  try {
    const [authPort, edgePort] = [await freePort(), await freePort()];
    auth = await startAuthProcess(database.url, authPort, `http://127.0.0.1:${edgePort}`, env.auth);
    edge = await startResourceProcess(database.url, edgePort, auth.url, { PUBLIC_BASE_URL: `http://127.0.0.1:${edgePort}`, ...env.edge });
    return { database, db, auth, edge, stop };
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
}
