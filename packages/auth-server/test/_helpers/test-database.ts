/**
 * A fresh database per test file and a Prisma client on it, for tests that run the CLI or the server as a process
 * (in-process servers use startTestServer in fixtures.ts). `seed` runs once the database exists: ava runs `before`
 * hooks concurrently, so rows a file needs up front go there.
 * Usage: const ctx = useTestDatabase(test); runAuth(args, { databaseUrl: ctx.url })
 */
import type { TestFn } from 'ava';
import { createDb, type PrismaClient } from '@heroes/db';
import { createTestDatabase, type TestDatabase } from '@heroes/test-kit';

export interface DatabaseContext {
  url: string;
  db: PrismaClient;
  /** How the CLI names this database in its success lines: `database "<name>" at <host>:<port>`. */
  where: string;
}

export function useTestDatabase(test: TestFn, seed?: (db: PrismaClient) => Promise<void>): DatabaseContext {
  const ctx = {} as DatabaseContext;
  let testDb: TestDatabase | undefined;
  test.before(async () => {
    testDb = await createTestDatabase();
    ctx.url = testDb.url;
    const url = new URL(testDb.url);
    ctx.where = `database "${url.pathname.slice(1)}" at ${url.hostname}:${url.port || '5432'}`;
    ctx.db = createDb(testDb.url, { maxConnections: 3 });
    await seed?.(ctx.db);
  });
  test.after.always(async () => {
    await ctx.db?.$disconnect();
    await testDb?.drop();
  });
  return ctx;
}
