/**
 * Prometheus metrics of one process (prom-client) at `GET /metrics`: `http_requests_total` and
 * `http_request_duration_seconds` by method, route template (or `unmatched`: ids never multiply series) and
 * status; the default process collectors; gauge()/counter() for a server's own. `/metrics` answers as
 * internal-access.ts allows (others 403). Use the middleware early: it times what runs below it.
 */
import type { Context, Middleware } from 'koa';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { Cidr } from '../settings/env-parsers.ts';
import { createInternalAccess } from '../address/internal-access.ts';
import { RequestSeries } from './request-series.ts';

export const METRICS_PATH = '/metrics';

export interface MetricsOptions {
  /** Networks allowed to read /metrics beside loopback. */
  allow?: readonly Cidr[];
  /** The route template of a request, or undefined when it matched none. */
  routeOf?: (ctx: Context) => string | undefined;
  /** Labels put on every series, e.g. `{ server: 'resource-server' }`. */
  defaultLabels?: Record<string, string>;
}

export interface Metrics {
  registry: Registry;
  /** Serves /metrics and times every other request below it. */
  middleware: Middleware;
  /**
   * A gauge read at each scrape: `read()` returns the value, or, with
   * `labelNames`, a list of `[labels, value]`.
   */
  gauge(name: string, help: string, read: () => number | [Record<string, string>, number][], labelNames?: readonly string[]): Gauge;
  counter<L extends string>(name: string, help: string, labelNames?: readonly L[]): Counter<L>;
}

const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(options: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  if (options.defaultLabels) registry.setDefaultLabels(options.defaultLabels);
  collectDefaultMetrics({ register: registry });
  // Counted in place, formatted by the registry at scrape time as prom-client's Counter and Histogram would be (request-series.ts).
  const series = new RequestSeries(DURATION_BUCKETS);
  registry.registerMetric(series.counter('http_requests_total', 'HTTP requests answered, by method, route template and status'));
  registry.registerMetric(series.histogram('http_request_duration_seconds', 'Time from request to the end of its answer, by method, route template and status'));
  const allowed = createInternalAccess(options.allow ?? []);
  const routeOf = options.routeOf ?? ((ctx: Context) => (ctx as Context & { _matchedRoute?: string })._matchedRoute);

  // Not async: a pass-through that only listens for the end of the answer.
  const middleware: Middleware = function metrics(ctx, next) {
    if (ctx.path === METRICS_PATH) return serveMetrics(ctx);
    const started = performance.now();
    const { res } = ctx;
    res.once('close', () => {
      const method = KNOWN_METHODS.has(ctx.method) ? ctx.method : 'other';
      series.record(method, routeOf(ctx) ?? 'unmatched', res.headersSent ? res.statusCode : undefined, (performance.now() - started) / 1000);
    });
    return next();
  };

  async function serveMetrics(ctx: Context): Promise<void> {
    if (!allowed(ctx)) {
      ctx.status = 403;
      ctx.body = { error: 'metrics are served to loopback and METRICS_ALLOW networks only' };
      return;
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.status = 405;
      ctx.set('Allow', 'GET, HEAD');
      ctx.body = { error: 'method not allowed' };
      return;
    }
    ctx.set('Content-Type', registry.contentType);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await registry.metrics();
  }

  return {
    registry,
    middleware,
    gauge(name, help, read, labelNames = []) {
      return new Gauge({
        name,
        help,
        labelNames,
        registers: [registry],
        collect() {
          const value = read();
          if (typeof value === 'number') this.set(value);
          else for (const [labels, n] of value) this.set(labels, n);
        },
      });
    },
    counter(name, help, labelNames = []) {
      return new Counter({ name, help, labelNames, registers: [registry] });
    },
  };
}

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
