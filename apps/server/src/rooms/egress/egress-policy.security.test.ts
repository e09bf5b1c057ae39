// Security review, finding 7 (the policy's part): the egress policy judged a target by its address range alone,
// so a public address of this host, by IP, by a name resolving to it or in a mapped, NAT64 or 6to4 spelling, was
// let through and reached every service bound to 0.0.0.0 here. The last test reads the real interfaces: it can
// only fail on a machine that has a public address. The proxy's limits: egress-proxy.security.test.ts.
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createEgressPolicy } from './egress-policy';

describe("egress policy and this host's own addresses", () => {
  // A machine with public addresses on eth0: each reaches every service bound to 0.0.0.0 here.
  let interfaces = ['127.0.0.1', '::1', '93.184.215.14', '2606:2800:21f:cb07::7'];
  const dns: Record<string, string[]> = {
    'self.test': ['93.184.215.14'],
    'self6.test': ['2606:2800:21f:cb07::7'],
    'neighbour.test': ['93.184.215.15', '2606:2800:21f:cb07::8'],
  };
  const policy = createEgressPolicy({
    resolve: async (name) => dns[name] ?? [],
    hostAddresses: () => interfaces,
    allow: ['93.184.215.14:8080'],
    selfPort: () => 4100,
  });

  it('refuses a public address of this host, by IP or by a name that resolves to it', async () => {
    for (const host of ['93.184.215.14', 'self.test', '[2606:2800:21f:cb07::7]', 'self6.test']) {
      expect({ host, decision: await policy.check(host, 80) }).toMatchObject({
        host,
        decision: { allowed: false, reason: 'host-address' },
      });
    }
    expect(await policy.check('neighbour.test', 80)).toEqual({
      allowed: true,
      addresses: ['93.184.215.15', '2606:2800:21f:cb07::8'],
    });
  });

  it('sees its IPv4 address through other spellings and IPv6 forms that lead to it', async () => {
    for (const host of [
      '1572394766', // decimal
      '[::ffff:93.184.215.14]',
      '[::ffff:5db8:d70e]',
      '[64:ff9b::5db8:d70e]', // NAT64
      '[2002:5db8:d70e::1]', // 6to4
    ]) {
      expect({ host, decision: await policy.check(host, 443) }).toMatchObject({
        host,
        decision: { allowed: false, reason: 'host-address' },
      });
    }
  });

  it('follows the interfaces as they come and go', async () => {
    interfaces = [...interfaces, '::ffff:8.8.4.4'];
    expect(await policy.check('8.8.4.4', 80)).toMatchObject({ allowed: false, reason: 'host-address' });
    interfaces = interfaces.filter((address) => address !== '93.184.215.14');
    expect(await policy.check('93.184.215.14', 80)).toEqual({ allowed: true, addresses: ['93.184.215.14'] });
    interfaces = [...interfaces, '93.184.215.14'];
  });

  it('still opens an allow-listed address and port of this host', async () => {
    expect(await policy.check('self.test', 8080)).toEqual({ allowed: true, addresses: ['93.184.215.14'] });
    expect(await policy.check('93.184.215.14', 8081)).toMatchObject({
      allowed: false,
      reason: 'host-address',
    });
  });

  it("never reaches the proxy's port through one of this host's addresses, even allow-listed", async () => {
    const selfAllowed = createEgressPolicy({
      hostAddresses: () => interfaces,
      allow: ['93.184.215.14:4100'],
      selfPort: () => 4100,
    });
    expect(await selfAllowed.check('93.184.215.14', 4100)).toMatchObject({
      allowed: false,
      reason: 'proxy-itself',
    });
  });

  it("refuses every address of this machine's interfaces by default", async () => {
    const real = createEgressPolicy();
    const addresses = Object.values(networkInterfaces()).flatMap((entries) =>
      (entries ?? []).filter((entry) => !entry.address.includes('%')).map((entry) => entry.address),
    );
    expect(addresses).toContain('127.0.0.1');
    for (const address of addresses) {
      const host = address.includes(':') ? `[${address}]` : address;
      expect({ host, decision: await real.check(host, 80) }).toMatchObject({
        host,
        decision: { allowed: false },
      });
    }
  });
});
