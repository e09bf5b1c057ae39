// The Redis limiter against a real Redis (testing/test-redis.ts says which): the same rules as the memory limiter,
// and one budget shared by two processes' limiters.
import { randomBytes, randomUUID } from 'node:crypto';
import { ROOM_TICKET_PATH } from '@rooms/api/room-protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { testRedisAvailable, testRedisUrl as url } from '../../testing/test-redis';
import { startTestServer, type TTestServer } from '../../testing/test-server';
import { createRedisRateLimiter, type TRedisRateLimiter } from './redis-rate-limiter';

const limiters: TRedisRateLimiter[] = [];
afterAll(async () => {
  await Promise.all(limiters.map((limiter) => limiter.close()));
});

function limiter(): TRedisRateLimiter {
  const created = createRedisRateLimiter(url);
  limiters.push(created);
  return created;
}

describe.skipIf(!testRedisAvailable)('redis rate limiter', () => {
  it('allows the limit, then answers how long to wait; peeking counts nothing', async () => {
    const key = `test:${randomBytes(6).toString('hex')}`;
    const one = limiter();
    for (let hit = 0; hit < 3; hit++) expect(await one.hit(key, 3, 60)).toBe(0);
    expect(await one.peek(key, 3)).toBe(60);
    expect(await one.hit(key, 3, 60)).toBe(60);
    expect(await one.peek(`${key}:other`, 3)).toBe(0);
  });

  it('shares one budget between the limiters of two processes, and opens a new window when it expires', async () => {
    const key = `test:${randomBytes(6).toString('hex')}`;
    const [first, second] = [limiter(), limiter()];
    expect(await first.hit(key, 2, 1)).toBe(0);
    expect(await second.hit(key, 2, 1)).toBe(0);
    expect(await first.hit(key, 2, 1)).toBe(1);
    expect(await second.peek(key, 2)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await second.hit(key, 2, 1)).toBe(0);
  });

  it('takes a hit back for every process, keeping the window, never below nothing', async () => {
    const key = `test:${randomBytes(6).toString('hex')}`;
    const [first, second] = [limiter(), limiter()];
    expect(await first.hit(key, 2, 60)).toBe(0);
    expect(await second.hit(key, 2, 60)).toBe(0);
    expect(await first.peek(key, 2)).toBe(60);
    await second.undo(key);
    expect(await first.peek(key, 2)).toBe(0);
    expect(await first.hit(key, 2, 60)).toBe(0);
    expect(await second.peek(key, 2)).toBeGreaterThan(0);
    await first.undo(key);
    await first.undo(key);
    await first.undo(key);
    await first.undo(`${key}:never-hit`);
    expect(await second.hit(key, 1, 60)).toBe(0);
    expect(await second.hit(key, 1, 60)).toBeGreaterThan(0);
  });

  it('holds one budget across two servers: new guests asking for room tickets from one address, 60 a minute in all', async () => {
    const servers = await Promise.all([
      startTestServer({ listen: false, env: { REDIS_URL: url } }),
      startTestServer({ listen: false, env: { REDIS_URL: url } }),
    ]);
    try {
      const address = `10.77.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
      // No cookie kept: each ask is a new guest's, which only the address's budget holds back.
      const ask = (server: TTestServer) =>
        server.app.inject({
          method: 'POST',
          url: ROOM_TICKET_PATH,
          payload: { roomId: randomUUID() },
          remoteAddress: address,
        });
      for (let index = 0; index < 60; index++) {
        expect((await ask(servers[index % 2]!)).statusCode, `ticket ${index + 1}`).toBe(404);
      }
      const refused = await ask(servers[0]!);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ data: expect.stringContaining('Too many attempts') });
    } finally {
      await Promise.all(servers.map((server) => server.close()));
    }
  }, 60_000);
});
