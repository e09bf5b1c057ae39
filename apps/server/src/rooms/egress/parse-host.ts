// Turns the host of a proxied request into either a canonical IP literal or a DNS name, the way a browser's URL
// parser would. The odd IPv4 spellings matter: getaddrinfo (inet_aton) resolves "0x7f.1" or "2130706433" to
// 127.0.0.1 itself, so a name that is really a number must be caught here, before it reaches the resolver.
import { isIPv4, isIPv6 } from 'node:net';

export type TParsedIp = TParsedIPv4 | TParsedIPv6;
type TParsedIPv4 = { kind: 'ip'; family: 4; address: string; value: number };
type TParsedIPv6 = { kind: 'ip'; family: 6; address: string; value: bigint };
export type TParsedHost = TParsedIp | { kind: 'name'; name: string };

export interface TAuthority {
  host: TParsedHost;
  port: number;
}

const IPV4_MAX = 0xffff_ffff;

/**
 * Parses a host as found in a URL or a CONNECT line (IPv6 in brackets or bare). Returns null for anything that
 * is neither a valid IP nor a plausible DNS name, so the caller refuses it rather than guessing.
 */
export function parseHost(input: string): TParsedHost | null {
  let host = input.trim().toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (host.includes(':')) return parseIPv6(host);

  // A trailing dot names the same host ("localhost." is localhost); strip one, like the URL parser does.
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host === '') return null;

  const labels = host.split('.');
  // WHATWG "ends in a number": when the last label is numeric the whole host must be an IPv4 address.
  if (isNumericLabel(labels[labels.length - 1]!)) return parseIPv4(host);

  // Letters, digits, hyphens and (seen in the wild) underscores; anything else (%, spaces, non-ASCII that
  // Chromium would have punycoded) is refused so it can never reach getaddrinfo in a surprising form.
  if (
    host.length > 253 ||
    !labels.every((label) => /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/.test(label))
  ) {
    return null;
  }
  return { kind: 'name', name: host };
}

/** Splits "host:port" or "[v6]:port" (CONNECT's authority-form); the port is required and must be 1..65535. */
export function splitAuthority(authority: string): { host: string; port: number } | null {
  const match = /^(\[[^\]]*\]|[^:[\]]+):(\d{1,5})$/.exec(authority.trim());
  if (!match) return null;
  const port = Number(match[2]);
  if (port < 1 || port > 65_535) return null;
  return { host: match[1]!, port };
}

export function parseAuthority(authority: string): TAuthority | null {
  const split = splitAuthority(authority);
  const host = split && parseHost(split.host);
  return split && host ? { host, port: split.port } : null;
}

/** Parses a bare IP string (as a resolver returns it); null when it is not one. */
export function parseIp(input: string): TParsedIp | null {
  const host = parseHost(input);
  return host?.kind === 'ip' ? host : null;
}

/** IPv4 in any form inet_aton and the URL standard accept: 1 to 4 parts, each decimal, 0-octal or 0x-hex. */
export function parseIPv4(input: string): TParsedIPv4 | null {
  const parts = input.split('.');
  if (parts.length > 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    const value = parseIPv4Number(part);
    if (value === null) return null;
    numbers.push(value);
  }
  const last = numbers.pop()!;
  // Leading parts are single bytes; the last one fills every byte that is left ("127.1" = 127.0.0.1).
  if (numbers.some((n) => n > 255) || last >= 256 ** (4 - numbers.length)) return null;
  let value = last;
  numbers.forEach((n, index) => {
    value += n * 256 ** (3 - index);
  });
  if (value > IPV4_MAX) return null;
  return { kind: 'ip', family: 4, address: formatIPv4(value), value };
}

function isNumericLabel(label: string): boolean {
  return /^(?:\d+|0x[0-9a-f]*)$/.test(label);
}

function parseIPv4Number(part: string): number | null {
  let digits = part;
  let radix = 10;
  if (/^0x/.test(part)) {
    digits = part.slice(2);
    radix = 16;
    // "0x" alone is zero in the URL standard.
    if (digits === '') return 0;
  } else if (part.length > 1 && part.startsWith('0')) {
    digits = part.slice(1);
    radix = 8;
  }
  const pattern = radix === 16 ? /^[0-9a-f]+$/ : radix === 8 ? /^[0-7]+$/ : /^\d+$/;
  if (!pattern.test(digits)) return null;
  // Anything beyond 2^32 is invalid anyway; the length cap keeps parseInt exact.
  if (digits.replace(/^0+/, '').length > 12) return null;
  return Number.parseInt(digits, radix);
}

function parseIPv6(input: string): TParsedIPv6 | null {
  // Zone ids ("%eth0") only name link-local interfaces, which are refused anyway; treat them as malformed.
  if (!isIPv6(input) || input.includes('%')) return null;
  let text = input;
  // A trailing dotted quad ("::ffff:127.0.0.1") becomes two hextets.
  const dotted = /(?:^|:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    if (!isIPv4(dotted[1]!)) return null;
    const v4 = parseIPv4(dotted[1]!)!.value;
    text = `${text.slice(0, text.length - dotted[1]!.length)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headGroups.length - tailGroups.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const groups = [...headGroups, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...tailGroups];
  let value = 0n;
  for (const group of groups) value = (value << 16n) | BigInt(Number.parseInt(group, 16));
  return { kind: 'ip', family: 6, address: formatIPv6(value), value };
}

export function formatIPv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => (value >>> shift) & 0xff).join('.');
}

/** RFC 5952 text: lower case, no leading zeros, the longest run (of two or more) of zero groups as "::". */
export function formatIPv6(value: bigint): string {
  const groups = Array.from({ length: 8 }, (_, index) =>
    Number((value >> BigInt(112 - index * 16)) & 0xffffn),
  );
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8; ) {
    let end = start;
    while (end < 8 && groups[end] === 0) end++;
    if (end - start > bestLength) {
      bestStart = start;
      bestLength = end - start;
    }
    start = end === start ? start + 1 : end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}
