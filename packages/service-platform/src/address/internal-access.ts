/**
 * Who may read a server's internal endpoints (/metrics, and the
 * authorization server's /health/*), judged by the client address rule
 * (client-address.ts):
 * - a request straight from its client (no trusted proxy forwarded it):
 *   loopback peers and the METRICS_ALLOW networks;
 * - a request a proxy forwarded (an ingress, or the edge in front of the
 *   authorization server): only when METRICS_ALLOW admits the original
 *   client. Loopback does not count here: the proxy's own address is
 *   loopback or private, the client it forwarded for is anyone.
 *
 * Usage: `const internal = createInternalAccess(config.metricsAllow); if (!internal(ctx.req)) refuse(ctx);`
 */
import type { IncomingMessage } from 'node:http';
import type { Cidr } from '../settings/env-parsers.ts';
import { createIpAllowList } from '../metrics/ip-allow-list.ts';
import { clientAddressOf } from './client-address.ts';

export function createInternalAccess(allow: readonly Cidr[]): (req: IncomingMessage) => boolean {
  const direct = createIpAllowList(allow);
  const forwarded = createIpAllowList(allow, { loopback: false });
  return (req) => {
    const { address, viaProxy } = clientAddressOf(req);
    return viaProxy ? forwarded(address) : direct(address);
  };
}
