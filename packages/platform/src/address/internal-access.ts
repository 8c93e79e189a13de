/**
 * Who may read a server's internal endpoints (/metrics, the authorization server's /health/*), under the client
 * address rule: a request straight from its client when it is loopback or in METRICS_ALLOW; a request a proxy
 * forwarded only when METRICS_ALLOW admits the original client (the proxy's own loopback address does not count).
 * Usage: `if (!createInternalAccess(config.metricsAllow)(ctx)) refuse(ctx);`
 */
import type { Cidr } from '../settings/env-parsers.ts';
import { createIpAllowList } from '../metrics/ip-allow-list.ts';
import { clientAddressOf } from './client-address.ts';

export function createInternalAccess(allow: readonly Cidr[]): (ctx: Parameters<typeof clientAddressOf>[0]) => boolean {
  const direct = createIpAllowList(allow);
  const forwarded = createIpAllowList(allow, { loopback: false });
  return (ctx) => {
    const { address, viaProxy } = clientAddressOf(ctx);
    return viaProxy ? forwarded(address) : direct(address);
  };
}
