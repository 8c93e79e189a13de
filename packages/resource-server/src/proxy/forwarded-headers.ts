/**
 * X-Forwarded-* for a request forwarded to the authorization server, which believes them from the edge only: For is
 * the one address the edge judged (@heroes/platform's client address rule), never a client-written list; Proto and
 * Host from a trusted proxy in front (its right-most value), else the edge's own socket and Host; Forwarded
 * (RFC 7239) and X-Forwarded-Port are dropped.
 */
import type { Context } from 'koa';
import type { TLSSocket } from 'node:tls';
import { clientAddressOf } from '@heroes/platform';

export function setForwardedHeaders(ctx: Context): void {
  const { req } = ctx;
  const headers = req.headers;
  const { address, peerTrusted } = clientAddressOf(ctx);
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
