/**
 * Hardens the http.Server a Koa app runs on; call once before listen(). Request and header timeouts (30 s, 15 s:
 * 408 JSON), JSON answers to Node's parser errors (handle-client-errors.ts), 413 instead of `100 Continue` over
 * `maxBodyBytes` (pass createHttpKit's), JSON for requests Node refuses after parsing (refuse-before-routing.ts),
 * and lingering close so an uploading client still reads an early answer (linger-on-close.ts).
 */
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { DEFAULTS } from '../defaults.ts';
import { handleClientErrors } from './handle-client-errors.ts';
import { lingerOnClose } from './linger-on-close.ts';
import { refuseBeforeRouting } from './refuse-before-routing.ts';
import { refuseOversizedContinue } from './refuse-oversized-continue.ts';

export interface ServerOptions {
  /** Largest announced body let through `Expect: 100-continue`. Default DEFAULTS.maxBodyBytes. */
  maxBodyBytes?: number | undefined;
  /** `server.requestTimeout`, milliseconds; 0 = none. Default DEFAULTS.requestTimeoutMs (30 s). */
  requestTimeoutMs?: number | undefined;
  /** `server.headersTimeout`, milliseconds. Default DEFAULTS.headersTimeoutMs (15 s). */
  headersTimeoutMs?: number | undefined;
  /** `server.connectionsCheckingInterval`, milliseconds. Default DEFAULTS.connectionsCheckingIntervalMs (1 s). */
  connectionsCheckingIntervalMs?: number | undefined;
  /** Logs refused requests (parser errors, oversized 100-continue). Default: none. */
  logger?: Logger | undefined;
}

export interface ResolvedServerOptions {
  readonly maxBodyBytes: number;
  readonly requestTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly connectionsCheckingIntervalMs: number;
}

export function configureServer(server: Server, options: ServerOptions = {}): ResolvedServerOptions {
  const requestTimeoutMs = count('requestTimeoutMs', options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs);
  const wantedHeaders = count('headersTimeoutMs', options.headersTimeoutMs ?? DEFAULTS.headersTimeoutMs);
  const resolved: ResolvedServerOptions = Object.freeze({
    maxBodyBytes: count('maxBodyBytes', options.maxBodyBytes ?? DEFAULTS.maxBodyBytes),
    requestTimeoutMs,
    // Node measures both from the request's start: headers cannot get longer than the whole request.
    headersTimeoutMs: requestTimeoutMs === 0 ? wantedHeaders : Math.min(wantedHeaders, requestTimeoutMs),
    connectionsCheckingIntervalMs: Math.max(1, count(
      'connectionsCheckingIntervalMs', options.connectionsCheckingIntervalMs ?? DEFAULTS.connectionsCheckingIntervalMs,
    )),
  });
  server.requestTimeout = resolved.requestTimeoutMs;
  server.headersTimeout = resolved.headersTimeoutMs;
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = resolved.connectionsCheckingIntervalMs;
  handleClientErrors(server, { logger: options.logger });
  refuseOversizedContinue(server, resolved.maxBodyBytes, options.logger);
  refuseBeforeRouting(server);
  lingerOnClose(server);
  return resolved;
}

function count(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`${name} must be a non-negative integer`);
  return value;
}
