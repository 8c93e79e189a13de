/**
 * Lingering close, as nginx does it: when a response that closes the
 * connection is sent before the request body was read (an early 413 on an
 * announced Content-Length, a 401 or 415 from a route that never reads),
 * closing the socket at once with unread bytes in its buffer makes the
 * kernel send a reset; a client still uploading (fetch/undici never waits
 * for `100 Continue`) then reports EPIPE/ECONNRESET instead of the answer.
 *
 * Rules:
 * - such a connection is half-closed instead (FIN after the answer) and the
 *   rest of the body is read and discarded; it is closed once the body has
 *   ended, or after DEFAULTS.lingerMs, or once DEFAULTS.lingerBytes more
 *   were read, whichever comes first;
 * - a connection whose request was read in full closes as Node closes it.
 *
 * Usage: configureServer(server) calls it.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import { DEFAULTS } from '../defaults.ts';

export interface LingerLimits {
  ms: number;
  bytes: number;
}

/** The last request received on each socket. */
const lastRequest = new WeakMap<Socket, IncomingMessage>();
const installed = new WeakSet<Server>();

export function lingerOnClose(server: Server, limits: LingerLimits = { ms: DEFAULTS.lingerMs, bytes: DEFAULTS.lingerBytes }): void {
  if (installed.has(server)) return;
  installed.add(server);
  server.on('request', (req: IncomingMessage) => lastRequest.set(req.socket, req));
  server.on('connection', (socket: Socket) => {
    // Node closes a connection after its last response with destroySoon().
    const destroySoon = socket.destroySoon.bind(socket);
    socket.destroySoon = () => {
      const req = lastRequest.get(socket);
      if (!req || req.complete || req.destroyed || socket.destroyed) destroySoon();
      else linger(socket, req, limits);
    };
  });
}

function linger(socket: Socket, req: IncomingMessage, limits: LingerLimits): void {
  let discarded = 0;
  const close = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(close, limits.ms);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  // Node has already set the unread request flowing (req._dump()): count what goes by.
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > limits.bytes) close();
  });
  req.once('end', close);
  req.once('error', close);
  socket.end();
  if (req.isPaused()) req.resume();
}
