/**
 * The resource server's Prometheus metrics (the platform's createMetrics): requests by route template (`/auth/*`
 * and `/.well-known/*` for forwarded ones, else `unmatched`), introspection cache lookups, the pool, the hash queue,
 * delayed login refusals the edge answered (docs/operations.md, "Abuse limits").
 */
import type { Context } from 'koa';
import { createMetrics, type BoundedQueue, type Cidr, type Metrics } from '@heroes/platform';
import type { Database } from '../data/create-pool.ts';
import { FORWARDED_PATHS, type RefusalDecider } from '../proxy/forward-to-auth-server.ts';

export interface ServerMetrics extends Metrics {
  /** Counts one introspection cache lookup. */
  countLookup(result: 'hit' | 'miss' | 'uncached'): void;
  /** Counts one delayed login refusal sent after its hold. */
  countRefusal(decidedBy: RefusalDecider): void;
}

export function createServerMetrics({ allow, pool, hashQueue }: { allow: readonly Cidr[]; pool: Database; hashQueue: BoundedQueue }): ServerMetrics {
  const metrics = createMetrics({
    allow,
    defaultLabels: { server: 'resource-server' },
    routeOf: (ctx: Context) => {
      const template = (ctx as Context & { _matchedRoute?: string })._matchedRoute;
      if (template) return template;
      if (FORWARDED_PATHS.test(ctx.path)) return ctx.path.startsWith('/.well-known/') ? '/.well-known/*' : '/auth/*';
      return undefined;
    },
  });
  const lookups = metrics.counter('introspection_cache_lookups_total', 'Bearer token lookups: hit (cached), miss (asked the authorization server), uncached (revocation feed down)', ['result']);
  for (const result of ['hit', 'miss', 'uncached'] as const) lookups.inc({ result }, 0);
  metrics.gauge('db_pool_connections', 'PostgreSQL pool connections: total open, idle, and callers waiting for one', () => {
    const heroes = pool.stats();
    return [[{ pool: 'heroes', state: 'total' }, heroes.total], [{ pool: 'heroes', state: 'idle' }, heroes.idle], [{ pool: 'heroes', state: 'waiting' }, heroes.waiting]];
  }, ['pool', 'state']);
  const refusals = metrics.counter('edge_refusals_answered_total', 'Delayed login refusals the edge sent after their hold: decided_by="edge" (a repeat answered without forwarding), "auth_server" (held here)', ['decided_by']);
  for (const decidedBy of ['edge', 'auth_server'] as const) refusals.inc({ decided_by: decidedBy }, 0);
  metrics.gauge('password_hash_queue_depth', 'Password hashes waiting for a worker', () => hashQueue.queued);
  return { ...metrics, countLookup: (result) => lookups.inc({ result }), countRefusal: (decidedBy) => refusals.inc({ decided_by: decidedBy }) };
}
