/**
 * X-Forwarded-* and Forwarded are believed only from the edge (`app.proxy = true`): a peer on loopback or in
 * TRUSTED_PROXIES keeps them, any other peer's are deleted before Koa reads the request, so a client reaching the
 * authorization server directly cannot choose its protocol, host or address.
 * Usage: http.createServer((req, res) => { stripUntrustedForwarding(req); handler(req, res); })
 */
import type { IncomingMessage } from 'node:http';
import { createIpAllowList, type Cidr } from '@heroes/platform';
import { EDGE_HOLDS_REFUSALS } from '@heroes/oauth-scopes';

/** Headers only the edge may set (the last: the edge holds delayed refusals, throttle/refusal-hold.ts). */
const FORWARDING = ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-port', 'forwarded', EDGE_HOLDS_REFUSALS] as const;

export function createForwardingFilter(trustedProxies: readonly Cidr[]): (req: IncomingMessage) => void {
  const trusted = createIpAllowList(trustedProxies);
  return function stripUntrustedForwarding(req) {
    if (trusted(req.socket.remoteAddress)) return;
    for (const name of FORWARDING) delete req.headers[name];
  };
}
