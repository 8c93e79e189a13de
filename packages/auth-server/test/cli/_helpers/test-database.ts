/**
 * A fresh database per test file plus a Prisma client on it.
 *
 * Usage:
 *   const ctx = useTestDatabase(test);
 *   test('...', async (t) => { await ctx.db.oAuthClient.count(); runAuth(args, { databaseUrl: ctx.url }); });
 */
import type { TestFn } from 'ava';
import { createDb, type PrismaClient } from '@heroes/db';
import { createTestDatabase, type TestDatabase } from '@heroes/db/testing';

export interface DatabaseContext {
  url: string;
  db: PrismaClient;
}

export function useTestDatabase(test: TestFn): DatabaseContext {
  const ctx = {} as DatabaseContext;
  let testDb: TestDatabase | undefined;
  test.before(async () => {
    testDb = await createTestDatabase();
    ctx.url = testDb.url;
    ctx.db = createDb(testDb.url, { maxConnections: 3 });
  });
  test.after.always(async () => {
    await ctx.db?.$disconnect();
    await testDb?.drop();
  });
  return ctx;
}
