import { describe, expect, it } from 'vitest';
import { classifyAddress } from './address-policy';

// [address as it may reach the classifier, expected reason, or null when it must pass]
const BLOCKED: [string, string][] = [
  ['0.0.0.0', 'unspecified'],
  ['0.255.255.255', 'unspecified'],
  ['10.0.0.0', 'private'],
  ['10.255.255.255', 'private'],
  ['100.64.0.0', 'shared-address-space'],
  ['100.127.255.255', 'shared-address-space'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['169.254.0.1', 'link-local'],
  ['169.254.169.254', 'link-local'],
  ['172.16.0.0', 'private'],
  ['172.31.255.255', 'private'],
  ['192.0.0.8', 'special-purpose'],
  ['192.0.2.1', 'documentation'],
  ['192.168.0.1', 'private'],
  ['192.168.255.255', 'private'],
  ['198.18.0.0', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.200', 'documentation'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.254', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  // Odd IPv4 spellings of loopback and the metadata service.
  ['2130706433', 'loopback'],
  ['0x7f.1', 'loopback'],
  ['0x7f000001', 'loopback'],
  ['0177.0.0.1', 'loopback'],
  ['127.1', 'loopback'],
  ['0', 'unspecified'],
  ['0251.0376.0251.0376', 'link-local'],
  ['0xa9fea9fe', 'link-local'],
  // IPv6.
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['[::ffff:7f00:1]', 'loopback'],
  ['::ffff:169.254.169.254', 'link-local'],
  ['::ffff:10.1.2.3', 'private'],
  ['64:ff9b::127.0.0.1', 'loopback'],
  ['64:ff9b::a9fe:a9fe', 'link-local'],
  ['::127.0.0.1', 'ipv4-compatible'],
  ['::8.8.8.8', 'ipv4-compatible'],
  ['fc00::1', 'unique-local'],
  ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique-local'],
  ['fe80::1', 'link-local'],
  ['febf:ffff::1', 'link-local'],
  ['ff02::1', 'multicast'],
  ['2001:db8::1', 'documentation'],
  ['2001:db8:ffff::1', 'documentation'],
  ['2002:7f00:1::1', 'loopback'], // 6to4 wrapping 127.0.0.1
  ['2001::1', 'special-purpose'], // Teredo
  ['64:ff9b:1::1', 'not-global-unicast'], // local-use NAT64
  ['fec0::1', 'not-global-unicast'], // deprecated site-local
  // Not addresses at all.
  ['256.0.0.1', 'invalid'],
  ['1.2.3.4.5', 'invalid'],
  ['08.0.0.1', 'invalid'],
  ['fe80::1%eth0', 'invalid'],
  ['example.com', 'invalid'],
];

const PUBLIC: [string, string][] = [
  ['8.8.8.8', '8.8.8.8'],
  ['1.1.1.1', '1.1.1.1'],
  ['9.255.255.255', '9.255.255.255'], // just below 10/8
  ['11.0.0.0', '11.0.0.0'], // just above 10/8
  ['100.63.255.255', '100.63.255.255'], // just below CGNAT
  ['100.128.0.0', '100.128.0.0'], // just above CGNAT
  ['126.255.255.255', '126.255.255.255'],
  ['128.0.0.0', '128.0.0.0'],
  ['169.253.255.255', '169.253.255.255'],
  ['169.255.0.0', '169.255.0.0'],
  ['172.15.255.255', '172.15.255.255'],
  ['172.32.0.0', '172.32.0.0'],
  ['192.0.1.255', '192.0.1.255'],
  ['192.167.255.255', '192.167.255.255'],
  ['192.169.0.0', '192.169.0.0'],
  ['198.17.255.255', '198.17.255.255'],
  ['198.20.0.0', '198.20.0.0'],
  ['223.255.255.255', '223.255.255.255'], // just below multicast
  ['134744072', '8.8.8.8'], // decimal form of a public address stays public
  ['2606:4700:4700::1111', '2606:4700:4700::1111'],
  ['2001:4860:4860::8888', '2001:4860:4860::8888'],
  ['::ffff:8.8.8.8', '8.8.8.8'], // mapped: connect as IPv4
  ['64:ff9b::8.8.8.8', '64:ff9b::808:808'],
  ['2002:808:808::1', '2002:808:808::1'],
  ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db7:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:db9::1', '2001:db9::1'],
];

describe('classifyAddress', () => {
  it.each(BLOCKED)('refuses %s (%s)', (address, reason) => {
    expect(classifyAddress(address)).toEqual({ allowed: false, reason });
  });

  it.each(PUBLIC)('lets public %s through, connecting to %s', (address, connectTo) => {
    expect(classifyAddress(address)).toEqual({ allowed: true, address: connectTo });
  });
});
