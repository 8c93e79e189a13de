/**
 * The one way both servers start listening: an http.Server hardened by configureServer, its requests tracked for
 * a drain, bound with listen(); close() drains (in-flight requests finish within shutdownTimeoutMs) and says how
 * many requests were cut.
 * Usage: const serving = await serve(app.callback(), { port, host, shutdownTimeoutMs, maxBodyBytes, logger })
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
