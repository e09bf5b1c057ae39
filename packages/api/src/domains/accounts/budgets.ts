// Budgets of tries (wrong passwords, codes mailed, …) kept in the rate limiter. A budget per address also counts
// per address group, a /24 for IPv4 and a /64 for IPv6 (what one customer of a provider usually holds), so
// rotating source addresses inside one network buys nothing.
import { isIPv4, isIPv6 } from 'node:net';
import { AppError } from '../../errors';
import type { RateLimiter } from '../../services/ports';

export interface TLimit {
  limit: number;
  windowSeconds: number;
}

/** A per-address budget: `limit` for one address, `groupLimit` for its whole /24 or /64. */
export interface TAddressLimit extends TLimit {
  groupLimit: number;
}

/** One counter: its key and its limit. */
export interface TBudget {
  key: string;
  limit: number;
  windowSeconds: number;
}

/** The address as one spelling: IPv4-mapped IPv6 (`::ffff:192.0.2.1`) is the IPv4 address, IPv6 in full. */
export function normalizeAddress(ip: string): string {
  const bare = ip.replace(/%.*$/, '').toLowerCase();
  if (isIPv4(bare)) return bare;
  const groups = ipv6Groups(bare);
  if (!groups) return bare;
  if (groups.slice(0, 5).every((group) => group === '0000') && groups[5] === 'ffff') {
    const low = Number.parseInt(`${groups[6]}${groups[7]}`, 16);
    return [low >>> 24, (low >>> 16) & 255, (low >>> 8) & 255, low & 255].join('.');
  }
  return groups.join(':');
}

/** The /24 (IPv4) or /64 (IPv6) the address belongs to; anything unparsable is its own group. */
export function addressGroup(ip: string): string {
  const address = normalizeAddress(ip);
  if (isIPv4(address)) return `${address.split('.').slice(0, 3).join('.')}.0/24`;
  const groups = ipv6Groups(address);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : address;
}

/** The eight groups of an IPv6 address, four hex digits each; null when it is not one. */
function ipv6Groups(address: string): string[] | null {
  if (!isIPv6(address)) return null;
  let text = address;
  // A trailing dotted quad (`::ffff:1.2.3.4`, `64:ff9b::1.2.3.4`) is two groups.
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  const groups = tail === undefined ? left : [...left, ...Array<string>(missing).fill('0'), ...right];
  return groups.length === 8 ? groups.map((group) => group.padStart(4, '0')) : null;
}

/** The two counters of a per-address budget: the exact address and its group. */
export function addressBudgets(name: string, ip: string, limit: TAddressLimit): TBudget[] {
  return [
    { key: `${name}:ip:${normalizeAddress(ip)}`, limit: limit.limit, windowSeconds: limit.windowSeconds },
    { key: `${name}:net:${addressGroup(ip)}`, limit: limit.groupLimit, windowSeconds: limit.windowSeconds },
  ];
}

/**
 * Counts one try against each budget before the work it guards, and answers 0; when one of them was spent already,
 * takes the try back from all of them and answers the longest wait. Tries sent at once (a slow password check
 * lets many be in flight) are so counted one by one: a check made before any of them was counted would let them
 * all through, to one server or, with the Redis limiter, to several.
 */
export async function hold(limiter: RateLimiter, budgets: readonly TBudget[]): Promise<number> {
  let wait = 0;
  for (const budget of budgets)
    wait = Math.max(wait, await limiter.hit(budget.key, budget.limit, budget.windowSeconds));
  if (wait > 0) await giveBack(limiter, budgets);
  return wait;
}

/** Counts one try against each budget; throws TOO_MANY_REQUESTS, counting nothing, when one is spent. */
export async function holdOrRefuse(limiter: RateLimiter, budgets: readonly TBudget[]): Promise<void> {
  const wait = await hold(limiter, budgets);
  if (wait > 0) throw new AppError('TOO_MANY_REQUESTS', { args: [wait] });
}

/** Takes back a try held against each budget: it turned out not to be one the budget counts. */
export async function giveBack(limiter: RateLimiter, budgets: readonly TBudget[]): Promise<void> {
  for (const budget of budgets) await limiter.undo(budget.key);
}
