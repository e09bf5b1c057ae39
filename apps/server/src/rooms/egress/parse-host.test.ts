import { describe, expect, it } from 'vitest';
import { parseAuthority, parseHost } from './parse-host';

describe('parseHost', () => {
  // Every spelling here is one that inet_aton would resolve on its own; each must come out as the IP it means.
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['0x7F.0.0.1', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0177.1', '127.0.0.1'],
    ['127.0.1', '127.0.0.1'],
    ['017700000001', '127.0.0.1'],
    ['0x.0x.0x.0x', '0.0.0.0'],
    ['127.0.0.1.', '127.0.0.1'],
    ['169.254.43518', '169.254.169.254'],
    ['4294967295', '255.255.255.255'],
  ])('reads %s as IPv4 %s, as the URL standard does', (input, address) => {
    expect(parseHost(input)).toMatchObject({ kind: 'ip', family: 4, address });
    // Node's WHATWG URL parser is the reference for what a browser would make of the same host.
    expect(new URL(`http://${input}/`).hostname).toBe(address);
  });

  it.each([
    ['[::1]', '::1'],
    ['::1', '::1'],
    ['[0:0:0:0:0:0:0:1]', '::1'],
    ['[::ffff:127.0.0.1]', '::ffff:7f00:1'],
    ['[FE80::0001]', 'fe80::1'],
    ['[2001:db8:0:0:1:0:0:1]', '2001:db8::1:0:0:1'],
    ['[1:0:0:2:0:0:0:3]', '1:0:0:2::3'],
  ])('reads %s as IPv6 %s', (input, address) => {
    expect(parseHost(input)).toMatchObject({ kind: 'ip', family: 6, address });
  });

  it.each([
    ['Example.COM', 'example.com'],
    ['localhost.', 'localhost'],
    ['my_host.internal', 'my_host.internal'],
    ['1e5.example', '1e5.example'],
  ])('reads %s as the name %s', (input, name) => {
    expect(parseHost(input)).toEqual({ kind: 'name', name });
  });

  it.each([
    '',
    '.',
    '256.1.1.1',
    '1.2.3.4.5',
    '4294967296',
    '09.1.1.1',
    '0x1g.1',
    'example.123',
    'exa mple.com',
    'exa%2ample.com',
    'bücher.de',
    '[::1',
    '[fe80::1%25eth0]',
    '1::2::3',
  ])('refuses the malformed host %j', (input) => {
    expect(parseHost(input)).toBeNull();
  });
});

describe('parseAuthority', () => {
  it('reads CONNECT targets with IPv6 brackets and odd IPv4 forms', () => {
    expect(parseAuthority('[::1]:443')).toMatchObject({ host: { address: '::1' }, port: 443 });
    expect(parseAuthority('0x7f.1:8080')).toMatchObject({ host: { address: '127.0.0.1' }, port: 8080 });
    expect(parseAuthority('example.com:443')).toEqual({
      host: { kind: 'name', name: 'example.com' },
      port: 443,
    });
  });

  it.each(['example.com', 'example.com:0', 'example.com:65536', '::1:443', 'a:b:443', ':443'])(
    'refuses %j',
    (input) => {
      expect(parseAuthority(input)).toBeNull();
    },
  );
});
