import { describe, expect, it } from 'vitest';
import { addressBudgets, addressGroup, normalizeAddress } from './budgets';

describe('address groups', () => {
  it('put an IPv4 address in its /24, whichever way it is written', () => {
    for (const ip of ['192.0.2.7', '::ffff:192.0.2.7', '::FFFF:c000:0207', '0:0:0:0:0:ffff:192.0.2.7']) {
      expect(normalizeAddress(ip)).toBe('192.0.2.7');
      expect(addressGroup(ip)).toBe('192.0.2.0/24');
    }
    expect(addressGroup('192.0.3.7')).toBe('192.0.3.0/24');
  });

  it('put an IPv6 address in its /64, however it is abbreviated', () => {
    expect(addressGroup('2001:db8:5:7::1')).toBe('2001:0db8:0005:0007::/64');
    expect(addressGroup('2001:DB8:5:7:ffff:1:2:3')).toBe('2001:0db8:0005:0007::/64');
    expect(addressGroup('fe80::1%eth0')).toBe('fe80:0000:0000:0000::/64');
    expect(normalizeAddress('2001:db8::1')).toBe(normalizeAddress('2001:0db8:0:0:0:0:0:1'));
  });

  it('count one address and its network under separate keys and limits', () => {
    const limit = { limit: 10, groupLimit: 30, windowSeconds: 60 };
    expect(addressBudgets('x', '::ffff:10.1.2.3', limit)).toEqual([
      { key: 'x:ip:10.1.2.3', limit: 10, windowSeconds: 60 },
      { key: 'x:net:10.1.2.0/24', limit: 30, windowSeconds: 60 },
    ]);
  });
});
