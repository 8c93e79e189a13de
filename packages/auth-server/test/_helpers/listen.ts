/**
 * LISTEN on a PostgreSQL channel and collect notification payloads.
 */
import type { ExecutionContext } from 'ava';
import pg from 'pg';
import { TOKENS_REVOKED_CHANNEL } from '../../src/index.ts';

export interface Listener {
  payloads: unknown[];
  /** Resolves when a payload matching `predicate` has arrived (or rejects after `ms`). */
  waitFor(predicate: (payload: Record<string, unknown>) => boolean, ms?: number): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function listen(url: string, channel: string): Promise<Listener> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`LISTEN ${channel}`);
  const payloads: unknown[] = [];
  const waiters = new Set<() => void>();
  client.on('notification', (message) => {
    payloads.push(JSON.parse(message.payload ?? 'null'));
    for (const wake of waiters) wake();
  });
  return {
    payloads,
    waitFor(predicate, ms = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = payloads.find((p) => p !== null && typeof p === 'object' && predicate(p as Record<string, unknown>));
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found as Record<string, unknown>);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching notification on ${channel} within ${ms} ms; got ${JSON.stringify(payloads)}`));
        }, ms);
        if (!check()) waiters.add(check);
      });
    },
    close: () => client.end(),
  };
}

/** The revocation notices sent to resource servers (TOKENS_REVOKED_CHANNEL) from now on; stops listening at the test's end. */
export async function revocationNotices(t: ExecutionContext, databaseUrl: string): Promise<Listener> {
  const listener = await listen(databaseUrl, TOKENS_REVOKED_CHANNEL);
  t.teardown(() => listener.close());
  return listener;
}
