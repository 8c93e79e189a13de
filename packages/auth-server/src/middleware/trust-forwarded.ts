/**
 * X-Forwarded-* (and Forwarded) are believed only from the edge: the
 * authorization server runs with `app.proxy = true`, so these headers set
 * the request's protocol, host and client address (request log lines,
 * throttling by address: throttle/client-address.ts walks X-Forwarded-For
 * right to left past these same trusted peers). A client that
 * reaches the authorization server directly must not be able to choose
 * them.
 *
 * Rules enforced here (on every request, before Koa reads it):
 * - a peer on loopback (where `npm start` runs the edge) or in
 *   TRUSTED_PROXIES (CIDR networks: the edge's addresses in a container
 *   deployment) keeps its forwarding headers;
 * - any other peer's forwarding headers are deleted, so the request is
 *   read as it arrived on the socket.
 *
 * Usage: `http.createServer((req, res) => { stripUntrustedForwarding(req); handler(req, res); })`
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
