// Which IP addresses a room's browser may reach: only the public Internet. Everything that could be this
// server, its private network or its cloud provider's metadata service is refused, and IPv6 forms that embed an
// IPv4 address are judged by the IPv4 address they lead to.
import { formatIPv4, parseIp, type TParsedIp } from './parse-host';

export type TBlockReason =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared-address-space'
  | 'link-local'
  | 'special-purpose'
  | 'documentation'
  | 'benchmarking'
  | 'multicast'
  | 'reserved'
  | 'broadcast'
  | 'unique-local'
  | 'ipv4-compatible'
  | 'not-global-unicast'
  | 'invalid';

export type TAddressVerdict =
  | { allowed: true /** The address to connect to: mapped IPv6 is unwrapped to its IPv4. */; address: string }
  | { allowed: false; reason: TBlockReason };

type TRange<T> = [base: T, prefix: number, reason: TBlockReason];

const V4_BLOCKED: TRange<string>[] = [
  ['0.0.0.0', 8, 'unspecified'], // "this network"; connecting to 0.0.0.0 reaches localhost on Linux
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared-address-space'], // CGNAT, often the provider's internal network
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'], // includes 169.254.169.254, the cloud metadata service
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'special-purpose'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'], // 255.255.255.255 lies inside; classifyIPv4 reports it as broadcast
];

const V4_RANGES = V4_BLOCKED.map(([base, prefix, reason]) => {
  const mask = prefix === 0 ? 0 : (0xffff_ffff << (32 - prefix)) >>> 0;
  return { base: parseIp(base)!.value as number, mask, reason };
});

const MAPPED_V4 = 0xffff_0000_0000n; // ::ffff:0:0/96
const NAT64_V4 = 0x0064_ff9b_0000_0000_0000_0000_0000_0000n; // 64:ff9b::/96
const V4_MASK = 0xffff_ffffn;

/** Classifies one IP address (any spelling parseHost accepts). */
export function classifyAddress(input: string | TParsedIp): TAddressVerdict {
  const ip = typeof input === 'string' ? parseIp(input) : input;
  if (!ip) return { allowed: false, reason: 'invalid' };
  return ip.family === 4 ? classifyIPv4(ip.value) : classifyIPv6(ip.value, ip.address);
}

function classifyIPv4(value: number): TAddressVerdict {
  if (value === 0xffff_ffff) return { allowed: false, reason: 'broadcast' };
  for (const range of V4_RANGES) {
    if ((value & range.mask) >>> 0 === range.base) return { allowed: false, reason: range.reason };
  }
  return { allowed: true, address: formatIPv4(value) };
}

function classifyIPv6(value: bigint, address: string): TAddressVerdict {
  const top = (bits: number) => value >> BigInt(128 - bits);
  // Embedded IPv4 first: a dual-stack socket sends ::ffff:a.b.c.d to a.b.c.d, a NAT64 gateway forwards
  // 64:ff9b::a.b.c.d to it and a 6to4 relay to the address in bits 16..48, so these are exactly as safe as the
  // IPv4 address inside. Only the mapped form is connected to as IPv4; the others go out as they are.
  const inside = ipv4Inside(value);
  if (inside !== undefined) {
    const verdict = classifyIPv4(inside);
    return verdict.allowed && top(96) !== MAPPED_V4 >> 32n ? { allowed: true, address } : verdict;
  }
  if (value === 0n) return { allowed: false, reason: 'unspecified' };
  if (value === 1n) return { allowed: false, reason: 'loopback' };
  // ::/96 "IPv4-compatible" is deprecated; some stacks still route it to the embedded IPv4 address.
  if (top(96) === 0n) return { allowed: false, reason: 'ipv4-compatible' };
  if (top(7) === 0xfcn >> 1n) return { allowed: false, reason: 'unique-local' }; // fc00::/7
  if (top(10) === 0xfe80n >> 6n) return { allowed: false, reason: 'link-local' }; // fe80::/10
  if (top(8) === 0xffn) return { allowed: false, reason: 'multicast' }; // ff00::/8
  // Only 2000::/3 is allocated as global unicast; everything else left (64:ff9b:1::/48 local NAT64, 100::/64
  // discard, site-local fec0::/10...) is never a public web server.
  if (top(3) !== 1n) return { allowed: false, reason: 'not-global-unicast' };
  if (top(32) === 0x2001_0db8n) return { allowed: false, reason: 'documentation' }; // 2001:db8::/32
  if (top(20) === 0x3fff0n) return { allowed: false, reason: 'documentation' }; // 3fff::/20 (RFC 9637)
  // Teredo tunnels (2001::/32) hide an obfuscated IPv4 address; no public site needs them.
  if (top(32) === 0x2001_0000n) return { allowed: false, reason: 'special-purpose' };
  return { allowed: true, address };
}

/** The IPv4 address (as a number) an IPv6 address leads to: IPv4-mapped, NAT64 (64:ff9b::/96) or 6to4. */
export function ipv4Inside(value: bigint): number | undefined {
  const top96 = value >> 32n;
  if (top96 === MAPPED_V4 >> 32n || top96 === NAT64_V4 >> 32n) return Number(value & V4_MASK);
  if (value >> 112n === 0x2002n) return Number((value >> 80n) & V4_MASK);
  return undefined;
}
