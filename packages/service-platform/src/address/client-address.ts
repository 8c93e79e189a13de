/**
 * The one client-address rule of every server (docs/operations.md, "The client address"): walk X-Forwarded-For
 * right to left from the socket's peer while the address in hand is a trusted proxy (ProxyTrust: none, n hops, or
 * networks); the first that is not one is the client. What the client wrote left of it is never read; an entry
 * that is no IP ends the walk; ports are dropped and IPv4-mapped IPv6 reads as IPv4. Use createClientAddress first.
 */
import net from 'node:net';
import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import type { ProxyTrust } from '../settings/env-parsers.ts';
import { createIpAllowList } from '../metrics/ip-allow-list.ts';

// The trust is TRUST_PROXY's parsed value: declared beside its parser, re-exported here for callers of this module.
export { NO_PROXY, type ProxyTrust } from '../settings/env-parsers.ts';

export interface ClientAddress {
  address: string;
  /** Reached us through a trusted proxy that named the client in X-Forwarded-For. */
  viaProxy: boolean;
  /** The socket's peer is a trusted proxy (its X-Forwarded-Proto/Host may be believed). */
  peerTrusted: boolean;
}

/** Whether the address at `index` of the walk (0: the socket's peer) is a trusted proxy. */
export function createTrustTest(trust: ProxyTrust): (address: string, index: number) => boolean {
  if (trust.kind === 'none') return () => false;
  if (trust.kind === 'hops') return (_address, index) => index < trust.hops;
  const allowed = createIpAllowList(trust.networks);
  return (address) => allowed(address);
}

export function resolveClientAddress(req: IncomingMessage, isTrusted: (address: string, index: number) => boolean): ClientAddress {
  let address = plainAddress(req.socket.remoteAddress ?? '') ?? '';
  const peerTrusted = isTrusted(address, 0);
  const entries = forwardedFor(req.headers['x-forwarded-for']);
  let index = 0;
  let viaProxy = false;
  while (isTrusted(address, index) && entries.length > 0) {
    const next = plainAddress(entries.pop()!);
    if (next === undefined) break;
    address = next;
    viaProxy = true;
    index += 1;
  }
  return { address, viaProxy, peerTrusted };
}

const judged = new WeakMap<IncomingMessage, ClientAddress>();

/** Koa middleware: judges the address once, sets `ctx.ip` to it and remembers it for clientAddressOf. */
export function createClientAddress(trust: ProxyTrust): Middleware {
  const isTrusted = createTrustTest(trust);
  return async function clientAddress(ctx, next) {
    const client = resolveClientAddress(ctx.req, isTrusted);
    judged.set(ctx.req, client);
    ctx.request.ip = client.address;
    await next();
  };
}

/**
 * The address judged by createClientAddress; for a request it never saw,
 * the socket's peer, counted as forwarded when it carries X-Forwarded-For
 * (nobody vouched for that header, so internal endpoints refuse it).
 */
export function clientAddressOf(req: IncomingMessage): ClientAddress {
  return judged.get(req) ?? {
    address: plainAddress(req.socket.remoteAddress ?? '') ?? req.socket.remoteAddress ?? 'unknown',
    viaProxy: req.headers['x-forwarded-for'] !== undefined,
    peerTrusted: false,
  };
}

function forwardedFor(header: string | string[] | undefined): string[] {
  if (header === undefined) return [];
  return (Array.isArray(header) ? header.join(',') : header).split(',').map((entry) => entry.trim()).filter(Boolean);
}

/** An IP address without port, brackets or IPv4-mapped prefix; undefined if the text is none. */
export function plainAddress(text: string): string | undefined {
  let value = text;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) value = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(':'));
  if (value.toLowerCase().startsWith('::ffff:') && net.isIPv4(value.slice(7))) value = value.slice(7);
  return net.isIP(value) === 0 ? undefined : value;
}
