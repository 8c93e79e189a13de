/**
 * Graceful stop without resetting a request a proxy already sent (trackRequests() before listen, then drain()):
 * keep accepting while draining (the accept queue may hold one), answer everything with `Connection: close`, close
 * a connection once idle DEFAULTS.drainIdleGraceMs, stop listening when nothing runs or is open, cut what is left
 * at `timeoutMs`. Resolves with how many requests were cut (0 for a clean drain).
 */
import type { Server, ServerResponse } from 'node:http';
import net, { type Socket } from 'node:net';
import { DEFAULTS } from '../defaults.ts';

export interface Drainer {
  /** Requests received and not yet answered. */
  inFlight(): number;
  drain(timeoutMs: number): Promise<{ cut: number }>;
}

interface ConnectionState {
  /** Requests on it not yet answered (pipelining may queue several). */
  running: number;
  /** When it last became idle (performance.now()). */
  idleSince: number;
}

export function trackRequests(server: Server, idleGraceMs: number = DEFAULTS.drainIdleGraceMs): Drainer {
  const active = new Set<ServerResponse>();
  const connections = new Map<Socket, ConnectionState>();
  let draining = false;
  let result: Promise<{ cut: number }> | undefined;
  let settle: () => void = () => {};

  server.on('connection', (socket: Socket) => {
    connections.set(socket, { running: 0, idleSince: performance.now() });
    socket.once('close', () => {
      connections.delete(socket);
      settle();
    });
  });
  // First, so that even a handler answering synchronously answers with Connection: close.
  server.prependListener('request', (req, res: ServerResponse) => {
    active.add(res);
    const state = connections.get(req.socket);
    if (state) state.running++;
    if (draining) res.shouldKeepAlive = false;
    res.once('close', () => {
      active.delete(res);
      if (state && --state.running === 0) state.idleSince = performance.now();
      settle();
    });
  });

  return {
    inFlight: () => active.size,
    drain(timeoutMs) {
      result ??= new Promise((resolve) => {
        draining = true;
        let cut = 0;
        let listening = server.listening;
        const finish = () => {
          if (connections.size > 0 || listening) return;
          clearTimeout(deadline);
          clearInterval(idleCheck);
          resolve({ cut });
        };
        const stopListening = () => {
          if (!listening) return;
          listening = false;
          // net.Server's close stops listening only; http.Server's would also close idle connections at once.
          net.Server.prototype.close.call(server, () => finish());
        };
        settle = () => {
          if (active.size > 0 || connections.size > 0) return;
          // After a turn of the event loop's poll phase: a connection waiting to be accepted is accepted first.
          setImmediate(() => {
            if (active.size === 0 && connections.size === 0) stopListening();
            finish();
          });
        };
        const idleCheck = setInterval(() => {
          const now = performance.now();
          for (const [socket, state] of connections) {
            if (state.running === 0 && now - state.idleSince >= idleGraceMs) socket.destroy();
          }
        }, Math.max(10, Math.min(idleGraceMs, timeoutMs) / 4));
        idleCheck.unref();
        const deadline = setTimeout(() => {
          cut = active.size;
          stopListening();
          for (const socket of connections.keys()) socket.destroy();
        }, timeoutMs);
        deadline.unref();
        for (const res of active) if (!res.headersSent) res.shouldKeepAlive = false;
        // A connection idle as the drain begins gets the whole grace from now: a request may be on its way on it.
        for (const state of connections.values()) if (state.running === 0) state.idleSince = performance.now();
        settle();
      });
      return result;
    },
  };
}
