/**
 * Test fixtures: a fresh database per test file, an in-process auth server
 * on an ephemeral port, and rows inserted directly through Prisma (tests
 * never depend on the CLI).
 */
import { pino } from 'pino';
import type { PrismaClient } from '@heroes/db';
import { createTestDatabase, type TestDatabase } from '@heroes/test-kit';
import { addClient, addUser, type ClientInput } from '@heroes/test-kit';
import type Koa from 'koa';
import { createApp, createAuthServer, generateKeys, type AppDeps, type AuthServer, type AuthServerOptions, type ProviderKeys } from '../../src/index.ts';

let keys: ProviderKeys | undefined;

/** One RSA key pair per test process (generation takes ~100 ms). */
export function testKeys(): ProviderKeys {
  return (keys ??= generateKeys());
}

export interface TestServer {
  url: string;
  server: AuthServer;
  db: PrismaClient;
  testDb: TestDatabase;
  close(): Promise<void>;
}

/**
 * An in-process server on a fresh database, dropped on close; or, given
 * `database`, on that one (e.g. a restart), left to its owner. `buildApp`
 * composes the app (default: every layer).
 *
 * Usage: `const s = await startTestServer({ authCodeTtl: 1 }); ... await s.close();`
 */
export async function startTestServer(overrides: Partial<AuthServerOptions> = {}, database?: TestDatabase, buildApp: (deps: AppDeps) => Koa = createApp): Promise<TestServer> {
  const testDb = database ?? (await createTestDatabase());
  const server = await createAuthServer({
    databaseUrl: testDb.url,
    keys: testKeys(),
    bcryptCost: 4,
    // Generous: the whole suite shares a busy machine; outage tests refuse connections, they never wait.
    dbConnectTimeoutMs: 20_000,
    dbQueryTimeoutMs: 20_000,
    publicBaseUrl: 'http://localhost:8888',
    logger: pino({ level: process.env['LOG_LEVEL'] ?? 'silent' }),
    ...overrides,
  }, buildApp);
  const { url } = await server.listen(overrides.port ?? 0);
  return {
    url,
    server,
    db: server.db,
    testDb,
    close: async () => {
      await server.close();
      if (!database) await testDb.drop();
    },
  };
}

/** Clients and users are written as the CLI and /register store them: the shared test kit's helpers. */
export { addClient, addUser, type ClientInput };

/** Several clients, in order. */
export async function addClients(db: PrismaClient, inputs: ClientInput[]): Promise<void> {
  for (const input of inputs) await addClient(db, input);
}

/** The resource server's client as the tests register it: the one that introspects (introspectAsResourceServer). */
export const RESOURCE_SERVER_CLIENT = { id: 'resource-server', secret: 'rs-secret' } as const;
