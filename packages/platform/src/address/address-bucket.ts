/**
 * The unit every per-address limit (login throttle, registration limit) counts a client address in: IPv4 as it
 * is, IPv6 by its /64. One subscriber holds a whole /64 and rotates addresses within it (RFC 8981): counted per
 * address, an attacker would get 2^64 budgets and the owner's known address would be forgotten daily.
 * Usage: addressBucket('2001:db8:1:2:a:b:c:d') → '2001:db8:1:2::/64'
 */
import net from 'node:net';

export function addressBucket(address: string): string {
  const bare = address.split('%')[0]!; // a zone id (fe80::1%eth0) names an interface, not a client
  if (!net.isIPv6(bare)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return mapped[1]!;
  return `${groupsOf(bare).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, `::` expanded, without leading zeros. */
function groupsOf(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  if (tail === undefined) return headGroups.map(trim);
  const tailGroups = tail === '' ? [] : tail.split(':');
  // An embedded IPv4 tail (64:ff9b::192.0.2.1) takes two groups; only the first four matter here.
  const tailLength = tailGroups.reduce((count, group) => count + (group.includes('.') ? 2 : 1), 0);
  return [...headGroups, ...Array<string>(8 - headGroups.length - tailLength).fill('0'), ...tailGroups].map(trim);
}

const trim = (group: string) => (group.includes('.') ? group : parseInt(group, 16).toString(16));
