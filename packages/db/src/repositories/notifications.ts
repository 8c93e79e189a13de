/**
 * PostgreSQL notifications (`pg_notify`): the revocation notices the authorization server sends and the resource
 * servers' listeners receive, and the listeners' own heartbeat. Inside a transaction a notice is delivered only if
 * it commits.
 */
import type { Queryable } from '../sql-pool.ts';

const NOTIFY = 'SELECT pg_notify($1, $2)';

/** A Prisma client or interactive transaction. */
interface RawExecutor {
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

/** Subscribes a listener's own connection (never a pooled one: a transaction pooler cannot carry LISTEN) to `channels`. */
export async function listen(client: { query(text: string): Promise<unknown> }, channels: readonly string[]): Promise<void> {
  await client.query(channels.map((channel) => `LISTEN ${channel}`).join('; '));
}

/** Sends `payload` on `channel` through a pool, a pg transaction (`{ query }`), a Prisma client or a Prisma transaction. */
export async function notify(db: Queryable | RawExecutor, channel: string, payload: string): Promise<void> {
  if ('$executeRawUnsafe' in db) await db.$executeRawUnsafe(NOTIFY, channel, payload);
  else await db.query({ text: NOTIFY, values: [channel, payload] });
}
