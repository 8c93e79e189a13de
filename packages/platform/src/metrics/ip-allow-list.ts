/**
 * Whether an address is in a list of networks: loopback (unless `{ loopback: false }`) plus the CIDR networks given,
 * e.g. METRICS_ALLOW. proxy-addr's compiled test matches, as for the client address rule: IPv4-mapped IPv6
 * (::ffff:10.0.0.1) as IPv4, anything that is no IP address never.
 */
import proxyaddr from 'proxy-addr';
import type { Cidr } from '../settings/env-parsers.ts';

export function createIpAllowList(networks: readonly Cidr[], options: { loopback?: boolean } = {}): (address: string | undefined) => boolean {
  const ranges = networks.map(({ address, prefix }) => `${address}/${prefix}`);
  const inList = proxyaddr.compile(options.loopback === false ? ranges : ['loopback', ...ranges]);
  return (address) => address !== undefined && inList(address, 0);
}
