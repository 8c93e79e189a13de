/**
 * JSON answers for requests refused after parsing and before any handler (Node's own are empty): no Host on
 * HTTP/1.1 → 400 (RFC 9112 section 3.2), an `Expect` other than 100-continue → 417 (RFC 9110 section 10.1.1), a
 * repeated single-valued header (http-kit's SINGLE_VALUED_HEADERS) → 400 naming it. Each says `Connection: close`.
 * Usage: configureServer(server) calls it once the handler is attached.
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
