/**
 * The one way both servers start listening: an http.Server for a request
 * handler, hardened by configureServer (timeouts, JSON answers to parser
 * errors, 413 before 100-continue), its requests tracked for a drain, and
 * bound with listen().
 * - close() drains: in-flight requests finish (up to shutdownTimeoutMs),
 *   new connections are refused; it says how many requests were cut.
 *
 * Usage:
 *   const serving = await serve(app.callback(), { port: 8888, host: '0.0.0.0', shutdownTimeoutMs: 10_000, maxBodyBytes, logger });
 *   await serving.close();
 */
import http from 'node:http';
import { configureServer, type ServerOptions } from './configure-server.ts';
import { trackRequests } from './drain.ts';
import { listen, type Listening } from './listen.ts';

export interface ServeOptions extends ServerOptions {
  port: number;
  host: string;
  /** Longest wait for in-flight requests on close(), ms. */
  shutdownTimeoutMs: number;
  /** `server.keepAliveTimeout`, ms (Node's default, 5 s, when absent). */
  keepAliveTimeoutMs?: number;
}

export interface Serving extends Listening {
  server: http.Server;
  /** Drains, then resolves with the number of requests cut at the deadline. */
  close(): Promise<{ cut: number }>;
}

export async function serve(handler: http.RequestListener, options: ServeOptions): Promise<Serving> {
  const { port, host, shutdownTimeoutMs, keepAliveTimeoutMs, ...serverOptions } = options;
  const server = http.createServer(handler);
  if (keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = keepAliveTimeoutMs;
  configureServer(server, serverOptions);
  const drainer = trackRequests(server);
  const listening = await listen(server, port, host);
  return { ...listening, server, close: () => drainer.drain(shutdownTimeoutMs) };
}
