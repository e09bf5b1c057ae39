// Fixed-window counters in Redis, shared by every API process and room gateway that points at the same Redis
// (REDIS_URL): a budget of wrong passwords or login attempts holds across processes, and across restarts within
// its window. Each hit is one atomic script (count, and start the window's expiry on its first hit).
import type { RateLimiter } from '@rooms/api';
import { Redis } from 'ioredis';

/** Keys of this product in a Redis others may share. */
const PREFIX = 'rooms:rate:';

const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
`;

/** DECR keeps the key's expiry; a key that expired (or never was) is left alone rather than made negative. */
const UNDO = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return 0
`;

export interface TRedisRateLimiter extends RateLimiter {
  close(): Promise<void>;
}

export function createRedisRateLimiter(url: string): TRedisRateLimiter {
  // Commands wait for a reconnect instead of failing at once; a limiter that cannot reach Redis for long fails
  // the request (a 500 would hide an outage the operator must see, so the caller's error path reports it).
  const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 3, enableAutoPipelining: true });
  const waitSeconds = (ttlMs: number) => Math.max(1, Math.ceil(ttlMs / 1000));

  return {
    async hit(key, limit, windowSeconds) {
      const [count, ttl] = (await redis.eval(HIT, 1, PREFIX + key, String(windowSeconds * 1000))) as [
        number,
        number,
      ];
      return count > limit ? waitSeconds(ttl) : 0;
    },
    async peek(key, limit) {
      const [count, ttl] = await Promise.all([redis.get(PREFIX + key), redis.pttl(PREFIX + key)]);
      return Number(count ?? 0) >= limit && ttl > 0 ? waitSeconds(ttl) : 0;
    },
    async undo(key) {
      await redis.eval(UNDO, 1, PREFIX + key);
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
