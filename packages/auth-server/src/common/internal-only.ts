/**
 * The authorization server's probes are for its operators (kubelet, the edge's readiness check): a request that
 * came through the edge is 403 unless METRICS_ALLOW admits its original client, the rule /metrics follows
 * (@heroes/platform's createInternalAccess). Use after the client address, before the probes.
 */
import type { Middleware } from 'koa';
import { createInternalAccess, HEALTH_PATHS, type Cidr } from '@heroes/platform';

const PROBES: ReadonlySet<string> = new Set(Object.values(HEALTH_PATHS));

export function internalOnly(metricsAllow: readonly Cidr[]): Middleware {
  const internal = createInternalAccess(metricsAllow);
  return async function internalOnly(ctx, next) {
    if (!PROBES.has(ctx.path) || internal(ctx)) return next();
    ctx.status = 403;
    ctx.body = { error: 'health probes are served to loopback and METRICS_ALLOW networks only' };
  };
}
