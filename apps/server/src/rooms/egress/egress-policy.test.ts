import { describe, expect, it } from 'vitest';
import { createEgressPolicy } from './egress-policy';

const records: Record<string, string[]> = {
  'public.test': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'rebind.test': ['10.0.0.5'],
  'mixed.test': ['8.8.8.8', '192.168.1.10'],
  'mapped.test': ['::ffff:127.0.0.1'],
  'devbox.test': ['127.0.0.1'],
};
const resolve = async (name: string) => {
  const found = records[name];
  if (!found) throw Object.assign(new Error(`ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  return found;
};

describe('egress policy', () => {
  const policy = createEgressPolicy({
    resolve,
    allow: ['127.0.0.1:4000', 'devbox.test:5000'],
    selfPort: () => 4100,
  });

  it('lets a public name through and returns every checked address to connect to', async () => {
    expect(await policy.check('public.test', 443)).toEqual({
      allowed: true,
      addresses: ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    });
  });

  it('refuses a name with one public and one private record', async () => {
    expect(await policy.check('mixed.test', 80)).toMatchObject({ allowed: false, reason: 'private' });
  });

  it('refuses a name resolving to a private or mapped-loopback address', async () => {
    expect(await policy.check('rebind.test', 80)).toMatchObject({ allowed: false, reason: 'private' });
    expect(await policy.check('mapped.test', 80)).toMatchObject({ allowed: false, reason: 'loopback' });
  });

  it('opens exactly the allow-listed address and port, by any name that leads there', async () => {
    expect(await policy.check('127.0.0.1', 4000)).toEqual({ allowed: true, addresses: ['127.0.0.1'] });
    expect(await policy.check('[::ffff:127.0.0.1]', 4000)).toEqual({
      allowed: true,
      addresses: ['127.0.0.1'],
    });
    expect(await policy.check('mapped.test', 4000)).toEqual({ allowed: true, addresses: ['127.0.0.1'] });
    expect(await policy.check('127.0.0.1', 4001)).toMatchObject({ allowed: false, reason: 'loopback' });
    expect(await policy.check('127.0.0.2', 4000)).toMatchObject({ allowed: false, reason: 'loopback' });
    // localhost is 127.0.0.1 and ::1; [::1]:4000 is not on the list, so localhost:4000 is not either.
    expect(await policy.check('localhost', 4000)).toMatchObject({ allowed: false, reason: 'loopback' });
  });

  it('opens an allow-listed name on its port only', async () => {
    expect(await policy.check('devbox.test', 5000)).toEqual({ allowed: true, addresses: ['127.0.0.1'] });
    expect(await policy.check('devbox.test', 5001)).toMatchObject({ allowed: false, reason: 'loopback' });
    expect(await policy.check('127.0.0.1', 5000)).toMatchObject({ allowed: false, reason: 'loopback' });
  });

  it('never lets the proxy reach its own port, even when it is allow-listed', async () => {
    const selfAllowed = createEgressPolicy({ resolve, allow: ['127.0.0.1:4100'], selfPort: () => 4100 });
    expect(await selfAllowed.check('127.0.0.1', 4100)).toMatchObject({
      allowed: false,
      reason: 'proxy-itself',
    });
    expect(await selfAllowed.check('0.0.0.0', 4100)).toMatchObject({
      allowed: false,
      reason: 'proxy-itself',
    });
  });

  it('tells an unresolvable name apart from a refused one', async () => {
    expect(await policy.check('nowhere.test', 80)).toEqual({
      allowed: false,
      reason: 'unresolvable',
      addresses: [],
    });
  });

  it('refuses a resolver answer that is not an IP address', async () => {
    const odd = createEgressPolicy({ resolve: async () => ['evil.example'] });
    expect(await odd.check('odd.test', 80)).toMatchObject({ allowed: false, reason: 'invalid' });
  });

  it('rejects an allow-list entry without a port at start-up', () => {
    expect(() => createEgressPolicy({ allow: ['127.0.0.1'] })).toThrow(/host:port/);
  });
});
