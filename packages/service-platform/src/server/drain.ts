/**
 * Graceful stop of an http.Server: in-flight requests finish, nothing new
 * is accepted, then every connection is closed.
 *
 * Rules:
 * - call trackRequests() before the server listens; drain() then
 *   1. stops accepting connections (the listening socket is closed; Node's
 *      server.close() would also close every idle keep-alive connection at
 *      once, resetting a request the client is sending on one right then);
 *   2. lets every request already received finish, and serves every request
 *      still arriving on an open connection, answering each with
 *      `Connection: close` when its headers are not out yet (a keep-alive
 *      client then opens its next connection elsewhere);
 *   3. closes the connections still idle after DEFAULTS.drainIdleGraceMs
 *      (a request already on its way on one of them is served first);
 *   4. after `timeoutMs`, cuts whatever is still open;
 * - resolves once every connection is closed, with how many requests were
 *   still running when the time ran out (0 for a clean drain).
 *
 * Usage:
 *   const drainer = trackRequests(server);
 *   process.once('SIGTERM', async () => { await drainer.drain(10_000); await pool.end(); });
 */
import type { Server, ServerResponse } from 'node:http';
import net from 'node:net';
import { DEFAULTS } from '../defaults.ts';

export interface Drainer {
  /** Requests received and not yet answered. */
  inFlight(): number;
  drain(timeoutMs: number): Promise<{ cut: number }>;
}

export function trackRequests(server: Server): Drainer {
  const active = new Set<ServerResponse>();
  let draining = false;
  let result: Promise<{ cut: number }> | undefined;

  // First, so that even a handler answering synchronously answers with Connection: close.
  server.prependListener('request', (_req, res: ServerResponse) => {
    active.add(res);
    if (draining) res.shouldKeepAlive = false;
    res.once('close', () => active.delete(res));
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
        const closeIdle = setTimeout(() => server.closeIdleConnections(), Math.min(DEFAULTS.drainIdleGraceMs, timeoutMs));
        closeIdle.unref();
        // net.Server's close: stop listening, 'close' once every connection is gone.
        net.Server.prototype.close.call(server, () => {
          clearTimeout(timer);
          clearTimeout(closeIdle);
          resolve({ cut });
        });
        for (const res of active) if (!res.headersSent) res.shouldKeepAlive = false;
      });
      return result;
    },
  };
}
