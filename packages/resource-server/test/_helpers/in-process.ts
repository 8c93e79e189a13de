/**
 * An in-process resource server on a fresh test database, pointed at the
 * given authorization server URL. Logs are silenced unless LOG_LEVEL is set.
 */
import { createTestDatabase, type TestDatabase } from '@heroes/db/testing';
import { pino } from 'pino';
import { createResourceServer, type ResourceServer, type ResourceServerOptions } from '../../src/index.ts';

export interface InProcessServer {
  url: string;
  server: ResourceServer;
  database: TestDatabase;
  close(): Promise<void>;
}

export const quietLogger = () => pino({ level: process.env.LOG_LEVEL ?? 'silent' });

export async function startInProcess(
  authServerUrl: string,
  options: Partial<ResourceServerOptions> = {},
  database?: TestDatabase,
): Promise<InProcessServer> {
  const db = database ?? (await createTestDatabase());
  const server = createResourceServer({
    databaseUrl: db.url,
    clientSecret: 'rs-secret',
    authServerUrl,
    bcryptCost: 4,
    // Patient on a busy machine; a test of the limit sets its own.
    dbQueryTimeoutMs: 20_000,
    logger: quietLogger(),
    ...options,
  });
  const running = await server.listen(0, '127.0.0.1');
  return {
    url: running.url,
    server,
    database: db,
    async close() {
      await running.close();
      if (!database) await db.drop();
    },
  };
}
