/**
 * An in-process resource server on a fresh test database, pointed at the
 * given authorization server URL. Logs are silenced unless LOG_LEVEL is set.
 * `db` is a Prisma client of the test's own on that database, to seed and
 * inspect rows (the server itself talks to it through its pg pool).
 */
import { createDb, type PrismaClient } from '@heroes/db';
import { createTestDatabase, type TestDatabase } from '@heroes/test-kit';
import { pino } from 'pino';
import { checkAnswersOf, freePort } from '@heroes/test-kit';
import { resourceIdentifier } from '@heroes/oauth-scopes';
import { EDGE_AUDIENCES } from './fake-auth-server.ts';
import { createOpenApiDocument, createResourceServer, type ResourceServer, type ResourceServerOptions } from '../../src/index.ts';

export interface InProcessServer {
  url: string;
  server: ResourceServer;
  database: TestDatabase;
  db: PrismaClient;
  close(): Promise<void>;
}

export const quietLogger = () => pino({ level: process.env.LOG_LEVEL ?? 'silent' });

export async function startInProcess(
  authServerUrl: string,
  options: Partial<ResourceServerOptions> = {},
  database?: TestDatabase,
): Promise<InProcessServer> {
  const db = database ?? (await createTestDatabase());
  // The public base URL is this server's own address, as in a real deployment (/app and /docs redirect elsewhere).
  const port = await freePort();
  const publicBaseUrl = options.publicBaseUrl ?? `http://127.0.0.1:${port}`;
  EDGE_AUDIENCES.add(resourceIdentifier(publicBaseUrl));
  const server = createResourceServer({
    publicBaseUrl,
    databaseUrl: db.url,
    clientSecret: 'rs-secret',
    authServerUrl,
    bcryptCost: 4,
    // Patient on a busy machine; a test of the limit sets its own.
    dbQueryTimeoutMs: 20_000,
    logger: quietLogger(),
    ...options,
  });
  const running = await server.listen(port, '127.0.0.1');
  // The edge's own answers must match /openapi.json; /auth/* and /.well-known/* may come from a fake here.
  checkAnswersOf(running.url, createOpenApiDocument(), { skip: (path) => path.startsWith('/auth/') || path.startsWith('/.well-known/') });
  const prisma = createDb(db.url, { maxConnections: 2 });
  return {
    url: running.url,
    server,
    database: db,
    db: prisma,
    async close() {
      await running.close();
      await prisma.$disconnect();
      if (!database) await db.drop();
    },
  };
}
