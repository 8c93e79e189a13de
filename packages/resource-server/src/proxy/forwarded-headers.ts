/**
 * X-Forwarded-For/Proto/Host for a request forwarded to the authorization
 * server (which believes them from the edge only, and builds its URLs and
 * client addresses from them). The edge forwards only what it judged:
 * - X-Forwarded-For is the one client address the edge judged (@heroes/platform's
 *   client address rule, TRUST_PROXY): never a list the client could have
 *   written into;
 * - X-Forwarded-Proto and -Host come from the proxy in front of the edge
 *   when that proxy is trusted (the right-most value: the one it wrote),
 *   else from the edge's own socket and Host; nobody else can make the
 *   authorization server build URLs for another host or scheme;
 * - Forwarded (RFC 7239) and X-Forwarded-Port are dropped.
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { clientAddressOf } from '@heroes/platform';

export function setForwardedHeaders(req: IncomingMessage): void {
  const headers = req.headers;
  const { address, peerTrusted } = clientAddressOf(req);
  const proto = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  const incomingProto = peerTrusted ? lastValue(headers['x-forwarded-proto']) : undefined;
  const incomingHost = peerTrusted ? lastValue(headers['x-forwarded-host']) : undefined;
  delete headers['x-forwarded-port'];
  delete headers.forwarded;
  headers['x-forwarded-for'] = address;
  headers['x-forwarded-proto'] = incomingProto || proto;
  headers['x-forwarded-host'] = incomingHost || headers.host || '';
}

function lastValue(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value.join(',') : value;
  return text?.split(',').pop()?.trim();
}
