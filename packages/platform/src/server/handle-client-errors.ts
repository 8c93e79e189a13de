/**
 * JSON answers for requests Node's parser refuses before app code runs ('clientError'): header overflow 431, chunk
 * extensions 413, request timeout 408, any other 400. Written only while no response on the socket has started
 * (a pipelined failure waits for the answer before it; otherwise the socket is destroyed), with
 * `Connection: close`, once per socket however many errors follow.
 */
import { STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';

export interface ClientErrorOptions {
  /** When given, each refused request is logged (`{ status, code }`, message 'client error'). */
  logger?: Logger | undefined;
}

const installed = new WeakSet<Server>();
/** Sockets whose first client error is being handled; later errors on them change nothing. */
const handled = new WeakSet<Duplex>();

export function handleClientErrors(server: Server, options: ClientErrorOptions = {}): void {
  if (installed.has(server)) return;
  installed.add(server);
  server.on('clientError', (err: Error & { code?: string; rawPacket?: unknown }, socket: Duplex) => {
    if (handled.has(socket)) return;
    handled.add(socket);
    if (err.code === 'ECONNRESET' || err.code === 'EPIPE') {
      socket.destroy();
      return;
    }
    const inFlight = inFlightResponse(socket);
    if (inFlight?.req?.complete && !inFlight.writableFinished) {
      inFlight.once('finish', () => answer(socket, err.code, options.logger, false));
      inFlight.once('close', () => {
        if (!inFlight.writableFinished) socket.destroy();
      });
      return;
    }
    answer(socket, err.code, options.logger, isHeadRequest(err.rawPacket));
  });
}

/** Whether the bytes being parsed begin a HEAD request: its answer carries no body (RFC 9110 section 9.3.2). */
function isHeadRequest(rawPacket: unknown): boolean {
  return Buffer.isBuffer(rawPacket) && rawPacket.subarray(0, 5).toString('latin1') === 'HEAD ';
}

function answer(socket: Duplex, code: string | undefined, logger: Logger | undefined, head: boolean): void {
  if (!canAnswer(socket)) {
    socket.destroy();
    return;
  }
  const [status, message] = answerFor(code);
  logger?.info({ status, code }, 'client error');
  const body = JSON.stringify({ error: message });
  const lines = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n`
    + 'Content-Type: application/json; charset=utf-8\r\n'
    + 'X-Content-Type-Options: nosniff\r\n'
    + `Content-Length: ${Buffer.byteLength(body)}\r\n`
    + 'Connection: close\r\n\r\n';
  const timer = setTimeout(() => socket.destroy(), 1_000).unref();
  socket.once('close', () => clearTimeout(timer));
  socket.end(head ? lines : lines + body, () => socket.destroy());
}

/** The ServerResponse Node has attached to the socket (`_httpMessage`), if any. */
function inFlightResponse(socket: Duplex): ServerResponse | undefined {
  return (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
}

function canAnswer(socket: Duplex): boolean {
  const response = inFlightResponse(socket);
  return socket.writable && !socket.destroyed && !socket.writableEnded && !response?.headersSent;
}

function answerFor(code: string | undefined): [number, string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW': return [431, 'request header fields too large'];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW': return [413, 'request chunk extensions too large'];
    case 'ERR_HTTP_REQUEST_TIMEOUT': return [408, 'request timeout'];
    default: return [400, 'bad request'];
  }
}
