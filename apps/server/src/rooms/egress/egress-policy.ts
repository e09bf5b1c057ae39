// The decision for one proxied target (host + port): resolve it once, refuse if any address is off limits, and
// hand back the exact addresses that were checked so the proxy connects to those and never resolves again
// (a second lookup is what DNS rebinding exploits). This machine's own addresses are refused too, whatever
// their range: a public address on eth0 reaches every service bound to 0.0.0.0 here, as 127.0.0.1 does.
import { lookup } from 'node:dns/promises';
import { networkInterfaces } from 'node:os';
import { classifyAddress, ipv4Inside, type TAddressVerdict, type TBlockReason } from './address-policy';
import {
  formatIPv4,
  parseAuthority,
  parseHost,
  parseIp,
  type TParsedHost,
  type TParsedIp,
} from './parse-host';

export type TResolver = (hostname: string) => Promise<string[]>;
/** The addresses of this host's network interfaces, read again on every check (they change: DHCP, VPNs). */
export type THostAddresses = () => Iterable<string>;

export type TEgressDecision =
  | { allowed: true; addresses: string[] }
  | { allowed: false; reason: TBlockReason | 'host-address' | 'proxy-itself'; addresses: string[] }
  /** DNS gave no answer: a gateway error for the user, not a policy refusal. */
  | { allowed: false; reason: 'unresolvable'; addresses: [] };

export interface TEgressPolicyOptions {
  /**
   * Exceptions for tests that serve pages on loopback, each exactly one `host:port` ("127.0.0.1:45123",
   * "[::1]:45123", "localhost:45123"). An IP entry lets that address and port through whatever name led there;
   * a name entry trusts that name's resolution on that port. Nothing else on the host is opened.
   */
  allow?: string[];
  resolve?: TResolver;
  /** Defaults to os.networkInterfaces(); tests inject one to give the host a public address. */
  hostAddresses?: THostAddresses;
  /** The proxy's own port: never a target, even when allow-listed, so a request cannot loop through it. */
  selfPort?: () => number | undefined;
}

type TVerdict = TAddressVerdict | { allowed: false; reason: 'host-address' };

export interface TEgressPolicy {
  check(host: string, port: number): Promise<TEgressDecision>;
}

export const systemResolver: TResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** Costs some 20 µs, next to a DNS lookup nothing, so it is read on every check rather than cached. */
export const systemHostAddresses: THostAddresses = () =>
  Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address));

export function createEgressPolicy(options: TEgressPolicyOptions = {}): TEgressPolicy {
  const resolve = options.resolve ?? systemResolver;
  const hostAddresses = options.hostAddresses ?? systemHostAddresses;
  const allowedNames = new Set<string>();
  const allowedAddresses = new Set<string>();
  for (const entry of options.allow ?? []) {
    const authority = parseAuthority(entry);
    // A typo here would silently widen or narrow the guard; fail loudly at start-up instead.
    if (!authority) throw new Error(`Invalid egress allow-list entry "${entry}": expected host:port`);
    const { host, port } = authority;
    if (host.kind === 'name') allowedNames.add(`${host.name} ${port}`);
    else allowedAddresses.add(`${connectAddress(host.address)} ${port}`);
  }

  return {
    async check(rawHost, port) {
      const host = parseHost(rawHost);
      if (!host || !Number.isInteger(port) || port < 1 || port > 65_535) {
        return { allowed: false, reason: 'invalid', addresses: [] };
      }
      let addresses: string[];
      try {
        addresses = await addressesOf(host, resolve);
      } catch {
        return { allowed: false, reason: 'unresolvable', addresses: [] };
      }
      if (addresses.length === 0) return { allowed: false, reason: 'unresolvable', addresses: [] };

      const nameAllowed = host.kind === 'name' && allowedNames.has(`${host.name} ${port}`);
      const ownAddresses = hostKeys(hostAddresses());
      const checked: string[] = [];
      for (const raw of addresses) {
        const ip = parseIp(raw);
        if (!ip) return { allowed: false, reason: 'invalid', addresses };
        const address = connectAddress(ip.address);
        const own = isOwnAddress(ip, ownAddresses);
        const classified = classifyAddress(ip);
        // The ranges' reason comes first (127.0.0.1 is on lo, yet "loopback" says more); this one catches what
        // the ranges let through.
        const verdict: TVerdict =
          classified.allowed && own ? { allowed: false, reason: 'host-address' } : classified;
        if (port === options.selfPort?.() && (own || isLocal(verdict))) {
          return { allowed: false, reason: 'proxy-itself', addresses };
        }
        // One bad record is enough to refuse: connecting to "the good one" would still let an attacker who
        // controls the DNS answer pick the order.
        if (!verdict.allowed && !nameAllowed && !allowedAddresses.has(`${address} ${port}`)) {
          return { allowed: false, reason: verdict.reason, addresses };
        }
        if (!checked.includes(address)) checked.push(address);
      }
      return { allowed: true, addresses: checked };
    },
  };
}

function addressesOf(host: TParsedHost, resolve: TResolver): Promise<string[]> {
  if (host.kind === 'ip') return Promise.resolve([host.address]);
  // RFC 6761: localhost and its subdomains are loopback, whatever a resolver or /etc/hosts would answer.
  if (host.name === 'localhost' || host.name.endsWith('.localhost'))
    return Promise.resolve(['127.0.0.1', '::1']);
  return resolve(host.name);
}

/** An IPv4-mapped IPv6 address connects (and is allow-listed) as its IPv4 address. */
function connectAddress(address: string): string {
  const ip = parseIp(address)!;
  if (ip.family === 6 && ip.value >> 32n === 0xffffn) return formatIPv4(Number(ip.value & 0xffff_ffffn));
  return ip.address;
}

/** The host's addresses in the form connectAddress gives, so a mapped spelling matches its IPv4 address. */
function hostKeys(addresses: Iterable<string>): Set<string> {
  const keys = new Set<string>();
  for (const raw of addresses) {
    // A zone-qualified address ("fe80::1%eth0") does not parse; as a target it is refused as malformed anyway.
    const ip = parseIp(raw);
    if (ip) keys.add(connectAddress(ip.address));
  }
  return keys;
}

/** The address itself, or the IPv4 address a NAT64 or 6to4 form of it leads to, is one of the host's own. */
function isOwnAddress(ip: TParsedIp, own: Set<string>): boolean {
  if (own.has(connectAddress(ip.address))) return true;
  const inside = ip.family === 6 ? ipv4Inside(ip.value) : undefined;
  return inside !== undefined && own.has(formatIPv4(inside));
}

/** Addresses that reach this host whatever its interfaces (0.0.0.0 is localhost on Linux). */
function isLocal(verdict: TVerdict): boolean {
  return !verdict.allowed && (verdict.reason === 'loopback' || verdict.reason === 'unspecified');
}
