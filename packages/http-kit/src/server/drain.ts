/**
 * Graceful stop of an http.Server: in-flight requests finish, nothing new
 * is accepted, then every connection is closed.
 *
 * Rules:
 * - call trackRequests() before the server listens; drain() then
 *   1. stops accepting connections (server.close());
 *   2. lets every request already received finish, answering it with
 *      `Connection: close` when its headers are not out yet (a keep-alive
 *      client then opens its next connection elsewhere), and closes each
 *      connection as soon as it is idle;
 *   3. after `timeoutMs`, cuts whatever is still open;
 * - resolves once every connection is closed, with how many requests were
 *   still running when the time ran out (0 for a clean drain).
 *
 * Usage:
 *   const drainer = trackRequests(server);
 *   process.once('SIGTERM', async () => { await drainer.drain(10_000); await pool.end(); });
 */
import type { Server, ServerResponse } from 'node:http';

export interface Drainer {
  /** Requests received and not yet answered. */
  inFlight(): number;
  drain(timeoutMs: number): Promise<{ cut: number }>;
}

export function trackRequests(server: Server): Drainer {
  const active = new Set<ServerResponse>();
  let draining = false;
  let result: Promise<{ cut: number }> | undefined;

  server.on('request', (_req, res: ServerResponse) => {
    active.add(res);
    if (draining) res.shouldKeepAlive = false;
    res.once('close', () => {
      active.delete(res);
      if (draining) server.closeIdleConnections();
    });
  });

  return {
    inFlight: () => active.size,
    drain(timeoutMs) {
      result ??= new Promise((resolve) => {
        draining = true;
        let cut = 0;
        const timer = setTimeout(() => {
          cut = active.size;
          server.closeAllConnections();
        }, timeoutMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve({ cut });
        });
        for (const res of active) if (!res.headersSent) res.shouldKeepAlive = false;
        server.closeIdleConnections();
      });
      return result;
    },
  };
}
