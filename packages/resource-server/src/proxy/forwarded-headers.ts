/**
 * X-Forwarded-For/Proto/Host for a request forwarded to the authorization
 * server (which runs with `app.proxy = true` and builds its URLs from them).
 * - this edge is the trust boundary by default: whatever the client sent in
 *   X-Forwarded-* or Forwarded is replaced, so nobody can make the
 *   authorization server build URLs for another host or scheme.
 * - with trustProxy (TRUST_PROXY=1, the edge behind a TLS terminator) the
 *   incoming Proto and Host are kept and the peer address is appended to For.
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

export function setForwardedHeaders(req: IncomingMessage, trustProxy: boolean): void {
  const headers = req.headers;
  const peer = req.socket.remoteAddress ?? '';
  const proto = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  const incoming = {
    for: first(headers['x-forwarded-for']),
    proto: first(headers['x-forwarded-proto']),
    host: first(headers['x-forwarded-host']),
  };
  delete headers['x-forwarded-port'];
  if (!trustProxy) delete headers.forwarded;
  headers['x-forwarded-for'] = trustProxy && incoming.for ? `${incoming.for}, ${peer}` : peer;
  headers['x-forwarded-proto'] = (trustProxy && incoming.proto) || proto;
  headers['x-forwarded-host'] = (trustProxy && incoming.host) || headers.host || '';
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
