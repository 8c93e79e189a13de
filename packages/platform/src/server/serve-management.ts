/**
 * The management port (MANAGEMENT_PORT, AUTH_MANAGEMENT_PORT): its own listener answering `/health/*` to whoever
 * reaches it and `/metrics` under METRICS_ALLOW, 404 otherwise. For kubelet and Prometheus; never published, so
 * probes need no address rule (docs/operations.md, "Internal endpoints").
 * Usage: const management = await serveManagement({ port: 9000, host, health, metrics, logger })
 */
import Koa from 'koa';
import type { Logger } from 'pino';
import type { Health } from '../health/create-health.ts';
import { METRICS_PATH, type Metrics } from '../metrics/create-metrics.ts';
import { serve, type Serving } from './serve.ts';

export interface ManagementOptions {
  port: number;
  host: string;
  health: Health;
  metrics: Pick<Metrics, 'middleware'>;
  logger: Logger;
}

/** Probes and scrapes are small: no body is read, the drain is short. */
const MANAGEMENT_LIMITS = { maxBodyBytes: 1024, shutdownTimeoutMs: 1_000 };

export async function serveManagement(options: ManagementOptions): Promise<Serving> {
  const app = new Koa();
  app.use(options.health.middleware);
  app.use((ctx, next) => (ctx.path === METRICS_PATH ? options.metrics.middleware(ctx, next) : next()));
  app.use((ctx) => {
    ctx.status = 404;
    ctx.body = { error: 'not found: this port serves /health/live, /health/ready and /metrics only' };
  });
  return serve(app.callback(), { port: options.port, host: options.host, logger: options.logger, ...MANAGEMENT_LIMITS });
}
