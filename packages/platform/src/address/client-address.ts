/**
 * The one client-address rule of every server (docs/operations.md, "The client address"): proxy-addr walks
 * X-Forwarded-For right to left from the socket's peer while the address in hand is a trusted proxy (ProxyTrust:
 * none, n hops, or networks); the first that is not one is the client. On top, one spelling per client: ports are
 * dropped, IPv4-mapped IPv6 reads as IPv4, and an entry that is no IP ends the walk. The verdict travels on ctx.state.
 */
import net from 'node:net';
import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import proxyaddr from 'proxy-addr';
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

/** What createClientAddress leaves on `ctx.state`. */
export interface ClientAddressState {
  clientAddress?: ClientAddress;
}

type TrustTest = (address: string, index: number) => boolean;

/** Whether the address at `index` of the walk (0: the socket's peer, as written) is a trusted proxy. */
export function createTrustTest(trust: ProxyTrust): TrustTest {
  if (trust.kind === 'none') return () => false;
  if (trust.kind === 'hops') return (_address, index) => index < trust.hops;
  const inNetworks = createIpAllowList(trust.networks);
  return (address) => inNetworks(plainAddress(address));
}

export function resolveClientAddress(req: IncomingMessage, isTrusted: TrustTest): ClientAddress {
  const walk = proxyaddr.all(req, isTrusted);
  let address = plainAddress(walk[0] ?? '') ?? '';
  let viaProxy = false;
  for (let index = 1; index < walk.length; index++) {
    const next = plainAddress(walk[index]!);
    if (next === undefined) break;
    address = next;
    viaProxy = true;
  }
  return { address, viaProxy, peerTrusted: isTrusted(walk[0] ?? '', 0) };
}

/** Koa middleware: judges the address once, sets `ctx.ip` to it and `ctx.state.clientAddress` for clientAddressOf. */
export function createClientAddress(trust: ProxyTrust): Middleware {
  const isTrusted = createTrustTest(trust);
  return async function clientAddress(ctx, next) {
    const client = resolveClientAddress(ctx.req, isTrusted);
    (ctx.state as ClientAddressState).clientAddress = client;
    ctx.request.ip = client.address;
    await next();
  };
}

/**
 * The address judged by createClientAddress; for a request it never saw,
 * the socket's peer, counted as forwarded when it carries X-Forwarded-For
 * (nobody vouched for that header, so internal endpoints refuse it).
 */
export function clientAddressOf(ctx: { state: unknown; req: IncomingMessage }): ClientAddress {
  const { req } = ctx;
  return (ctx.state as ClientAddressState).clientAddress ?? {
    address: plainAddress(req.socket.remoteAddress ?? '') ?? req.socket.remoteAddress ?? 'unknown',
    viaProxy: req.headers['x-forwarded-for'] !== undefined,
    peerTrusted: false,
  };
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
