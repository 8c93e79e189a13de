/**
 * Whether an address is in a list of networks: loopback (unless
 * `{ loopback: false }`) plus the CIDR networks given, e.g. METRICS_ALLOW
 * (node:net BlockList does the CIDR matching). IPv4-mapped IPv6 addresses
 * (::ffff:10.0.0.1) are matched as IPv4.
 */
import net from 'node:net';
import type { Cidr } from '../settings/env-parsers.ts';

export function createIpAllowList(networks: readonly Cidr[], options: { loopback?: boolean } = {}): (address: string | undefined) => boolean {
  const list = new net.BlockList();
  if (options.loopback !== false) {
    list.addSubnet('127.0.0.0', 8, 'ipv4');
    list.addAddress('::1', 'ipv6');
  }
  for (const { address, prefix, family } of networks) list.addSubnet(address, prefix, family);
  return (address) => {
    if (!address) return false;
    const plain = address.startsWith('::ffff:') && net.isIPv4(address.slice(7)) ? address.slice(7) : address;
    const family = net.isIPv4(plain) ? 'ipv4' : net.isIPv6(plain) ? 'ipv6' : undefined;
    return family !== undefined && list.check(plain, family);
  };
}
