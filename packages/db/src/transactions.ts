/**
 * Prisma transactions for the repositories' typed queries: `inTransaction` runs the caller's steps (each a repository
 * call that takes the `Transaction`) on one connection between BEGIN and COMMIT, ROLLBACK when a step throws. Only
 * this package touches Prisma's client API; callers compose repository functions.
 */
import type { Prisma, PrismaClient } from './generated/client.ts';

/** A Prisma client or an interactive transaction's client: what a typed-query repository function runs on. */
export type Transaction = Prisma.TransactionClient;

/**
 * `work` in one transaction; its answer, or its error after ROLLBACK.
 *
 * Usage: `await inTransaction(db, async (tx) => { await setUserDisabledAt(tx, id, new Date()); await notify(tx, ...) })`
 */
export function inTransaction<T>(db: PrismaClient, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return db.$transaction(work);
}
