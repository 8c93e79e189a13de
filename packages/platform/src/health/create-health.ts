/**
 * Health probes, answered before anything else of the app (no body, no log line, no metrics): `/health/live` 200
 * while the process runs; `/health/ready` runs every check at once (each bounded by `timeoutMs`, the result reused
 * for `cacheMs`) → 200, 503 naming what is down, or 503 `draining` after markDraining(). HEAD as GET, else 405.
 * Usage: app.use(createHealth({ checks: { database: ping } }).middleware) first.
 */
import type { Context, Middleware } from 'koa';
import { DEFAULTS } from '../defaults.ts';

/** Resolves true (or anything but false) when up; false or a rejection means down. */
export type HealthCheck = () => Promise<unknown> | unknown;

export interface HealthOptions {
  checks: Record<string, HealthCheck>;
  /** Longest a check may take before it counts as down, ms. Default 1000. */
  timeoutMs?: number;
  /** How long a readiness result is reused, ms. Default 500. */
  cacheMs?: number;
}

export interface Health {
  middleware: Middleware;
  /** From now on /health/ready answers 503 `draining`. */
  markDraining(): void;
  /** Current readiness (cached as the endpoint's). */
  ready(): Promise<{ ready: boolean; checks: Record<string, 'up' | 'down'> }>;
}

export const HEALTH_PATHS = { live: '/health/live', ready: '/health/ready' } as const;

export function createHealth({ checks, timeoutMs = 1_000, cacheMs = 500 }: HealthOptions): Health {
  let draining = false;
  let cached: { at: number; result: Promise<{ ready: boolean; checks: Record<string, 'up' | 'down'> }> } | undefined;

  async function runChecks() {
    const entries = await Promise.all(Object.entries(checks).map(async ([name, check]) => [name, await isUp(check, timeoutMs)] as const));
    return {
      ready: entries.every(([, up]) => up),
      checks: Object.fromEntries(entries.map(([name, up]) => [name, up ? 'up' : 'down'])) as Record<string, 'up' | 'down'>,
    };
  }

  function ready() {
    if (!cached || performance.now() - cached.at > cacheMs) cached = { at: performance.now(), result: runChecks() };
    return cached.result;
  }

  // Not async: a pass-through for every other request.
  const middleware: Middleware = function health(ctx, next) {
    if (ctx.path !== HEALTH_PATHS.live && ctx.path !== HEALTH_PATHS.ready) return next();
    return answer(ctx);
  };

  async function answer(ctx: Context): Promise<void> {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.status = 405;
      ctx.set('Allow', 'GET, HEAD');
      ctx.body = { error: 'method not allowed' };
      return;
    }
    ctx.set('Cache-Control', 'no-store');
    if (ctx.path === HEALTH_PATHS.live) {
      ctx.body = { status: 'live' };
      return;
    }
    if (draining) {
      ctx.status = 503;
      ctx.set('Retry-After', String(DEFAULTS.retryAfterSeconds));
      ctx.body = { status: 'draining' };
      return;
    }
    const result = await ready();
    ctx.status = result.ready ? 200 : 503;
    if (!result.ready) ctx.set('Retry-After', String(DEFAULTS.retryAfterSeconds));
    ctx.body = { status: result.ready ? 'ready' : 'unavailable', checks: result.checks };
  }

  return {
    middleware,
    markDraining() {
      draining = true;
    },
    ready,
  };
}

async function isUp(check: HealthCheck, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return (await Promise.race([Promise.resolve().then(check), timeout])) !== false;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
