import test from 'ava';
import { addressBucket } from '../../src/address/address-bucket.ts';

test('IPv4 as it is; IPv6 by its /64, however it is spelled', (t) => {
  t.is(addressBucket('203.0.113.7'), '203.0.113.7');
  t.is(addressBucket('2001:db8:1:2:a:b:c:d'), '2001:db8:1:2::/64');
  t.is(addressBucket('2001:0db8:0001:0002::1'), '2001:db8:1:2::/64');
  t.is(addressBucket('2001:db8::1'), '2001:db8:0:0::/64');
  t.is(addressBucket('::1'), '0:0:0:0::/64');
  t.is(addressBucket('fe80::1%eth0'), 'fe80:0:0:0::/64');
  t.is(addressBucket('64:ff9b::192.0.2.1'), '64:ff9b:0:0::/64');
  t.is(addressBucket('::ffff:198.51.100.9'), '198.51.100.9', 'IPv4-mapped: the IPv4 client');
  t.is(addressBucket('unknown'), 'unknown');
});
