/**
 * JSON answers for the requests refused after parsing and before any
 * request handler runs (Node refuses the first two itself, with an empty body):
 *
 * | request                                   | status | body `{"error": ...}`       |
 * |-------------------------------------------|--------|-----------------------------|
 * | HTTP/1.1 without Host (RFC 9112 sec. 3.2)  | 400    | `missing Host header`       |
 * | `Expect:` other than 100-continue         | 417    | `unsupported expectation`   |
 *   (RFC 9110 section 10.1.1)
 * | a second Host, Content-Length, Content-Type | 400  | `repeated <Name> header`   |
 *   or Authorization (http-kit's SINGLE_VALUED_HEADERS, docs/http.md)
 *
 * Rules:
 * - Node's own check is turned off (`requireHostHeader`) and done here
 *   instead, by wrapping the server's request listeners: a request without
 *   Host never reaches the app;
 * - both answers say `Connection: close` (the rest of the request is not
 *   worth reading); lingering close (linger-on-close.ts) still lets the
 *   client read them.
 *
 * Usage: configureServer(server) calls it, once the handler is attached.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { NO_SNIFF, repeatedSingleValuedHeader } from '@heroes/http-kit';

const installed = new WeakSet<Server>();

export function refuseBeforeRouting(server: Server): void {
  if (installed.has(server)) return;
  installed.add(server);
  (server as Server & { requireHostHeader: boolean }).requireHostHeader = false;
  const listeners = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (lacksHost(req)) {
      refuse(res, 400, 'missing Host header');
      return;
    }
    const repeated = repeatedSingleValuedHeader(req.rawHeaders);
    if (repeated !== undefined) {
      refuse(res, 400, `repeated ${repeated} header`);
      return;
    }
    for (const listener of listeners) listener.call(server, req, res);
  });
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => refuse(res, 417, 'unsupported expectation'));
}

function lacksHost(req: IncomingMessage): boolean {
  return req.httpVersionMajor === 1 && req.httpVersionMinor === 1 && req.headers.host === undefined;
}

function refuse(res: ServerResponse, status: number, error: string): void {
  const body = JSON.stringify({ error });
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    ...NO_SNIFF,
    Connection: 'close',
  });
  res.end(body);
}
