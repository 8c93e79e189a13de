/**
 * Tells resource servers that a client's tokens may be dead, so they drop
 * what they cached about them: `NOTIFY heroes_tokens_revoked` with the JSON
 * payload `{"clientId":"<id>"}`. Sent inside the caller's transaction,
 * PostgreSQL delivers it only if that transaction commits.
 */
import type { Prisma } from '@heroes/db';

export const TOKENS_REVOKED_CHANNEL = 'heroes_tokens_revoked';

type Executor = Pick<Prisma.TransactionClient, '$executeRaw'>;

/** Usage: `await db.$transaction(async (tx) => { ...; await notifyTokensRevoked(tx, id); })` */
export async function notifyTokensRevoked(db: Executor, clientId: string): Promise<void> {
  const payload = JSON.stringify({ clientId });
  await db.$executeRaw`SELECT pg_notify(${TOKENS_REVOKED_CHANNEL}, ${payload})`;
}
