/**
 * autocannon, typed for what the benchmark uses: one run against a URL,
 * optionally with a per-request `setupRequest` (distinct tokens, a mix of
 * routes). Every run is bounded by its duration and targets 127.0.0.1.
 */
import { createRequire } from 'node:module';

export interface Histogram { average: number; mean: number; p50: number; p99: number; max: number; total: number }
export interface LoadResult {
  requests: Histogram;
  latency: Histogram;
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
  statusCodeStats?: Record<string, { count: number }>;
}
export interface LoadRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: LoadRequest) => LoadRequest;
}
export interface LoadOptions {
  url: string;
  connections: number;
  duration: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  requests?: LoadRequest[];
}

const autocannon = createRequire(import.meta.url)('autocannon') as (options: LoadOptions) => Promise<LoadResult>;

/**
 * Usage:
 *   const result = await runLoad({ url, connections: 50, duration: 10, headers });
 */
export function runLoad(options: LoadOptions): Promise<LoadResult> {
  return autocannon(options);
}

/** Requests per second actually completed (2xx and others alike). */
export function throughput(result: LoadResult): number {
  return result.requests.average;
}
