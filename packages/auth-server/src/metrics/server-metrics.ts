/**
 * The authorization server's Prometheus metrics (the platform's createMetrics):
 * requests by route, the database pool, and the password-hash queue.
 * - the route label is the endpoint path for the provider's and the login
 *   form's fixed paths, `unmatched` for anything else.
 */
import type { Context } from 'koa';
import { poolStats, type PrismaClient } from '@heroes/db';
import { createMetrics, type BoundedQueue, type Cidr, type Metrics } from '@heroes/platform';
import { ROUTES } from '../common/routes.ts';

/** Every fixed path of the server (the provider's endpoints and /auth/code). */
const ROUTE_PATHS: ReadonlySet<string> = new Set(Object.values(ROUTES));

export function createServerMetrics({ allow, db, hashQueue }: { allow: readonly Cidr[]; db: PrismaClient; hashQueue: BoundedQueue }): Metrics {
  const metrics = createMetrics({
    allow,
    defaultLabels: { server: 'auth-server' },
    routeOf: (ctx: Context) => (ROUTE_PATHS.has(ctx.path) ? ctx.path : undefined),
  });
  metrics.gauge('db_pool_connections', 'PostgreSQL pool connections: total open, idle, and callers waiting for one', () => {
    const stats = poolStats(db);
    return [[{ pool: 'prisma', state: 'total' }, stats.total], [{ pool: 'prisma', state: 'idle' }, stats.idle], [{ pool: 'prisma', state: 'waiting' }, stats.waiting]];
  }, ['pool', 'state']);
  metrics.gauge('password_hash_queue_depth', 'Password and client-secret hashes waiting for a worker', () => hashQueue.queued);
  return metrics;
}
