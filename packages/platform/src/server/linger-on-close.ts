/**
 * Lingering close, as nginx: an answer that closes the connection before the body was read would make the kernel
 * reset it under a client still uploading. Such a connection is half-closed instead and the rest of the body
 * discarded until it ends, DEFAULTS.lingerMs or DEFAULTS.lingerBytes; a fully read request closes as Node closes it.
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
