import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from './memory-rate-limiter';

describe('memory rate limiter', () => {
  it('allows the limit, then answers how long to wait, then opens a new window', async () => {
    let now = 1_000_000;
    const limiter = createMemoryRateLimiter(() => now);
    for (let hit = 0; hit < 3; hit++) expect(await limiter.hit('login:ip:1', 3, 60)).toBe(0);
    expect(await limiter.hit('login:ip:1', 3, 60)).toBe(60);
    now += 45_000;
    expect(await limiter.hit('login:ip:1', 3, 60)).toBe(15);
    expect(await limiter.hit('login:ip:2', 3, 60)).toBe(0);
    now += 15_000;
    expect(await limiter.hit('login:ip:1', 3, 60)).toBe(0);
  });

  it('peeks without counting: open until the limit is reached, then the wait', async () => {
    let now = 1_000_000;
    const limiter = createMemoryRateLimiter(() => now);
    expect(await limiter.peek('room-password:ip:1', 2)).toBe(0);
    await limiter.hit('room-password:ip:1', 2, 60);
    expect(await limiter.peek('room-password:ip:1', 2)).toBe(0);
    await limiter.hit('room-password:ip:1', 2, 60);
    expect(await limiter.peek('room-password:ip:1', 2)).toBe(60);
    expect(await limiter.peek('room-password:ip:1', 2)).toBe(60);
    now += 60_000;
    expect(await limiter.peek('room-password:ip:1', 2)).toBe(0);
  });

  it('takes a hit back within its window, never below nothing, and not into the next window', async () => {
    let now = 1_000_000;
    const limiter = createMemoryRateLimiter(() => now);
    await limiter.hit('room-password:ip:1', 2, 60);
    await limiter.hit('room-password:ip:1', 2, 60);
    expect(await limiter.peek('room-password:ip:1', 2)).toBe(60);
    await limiter.undo('room-password:ip:1');
    expect(await limiter.peek('room-password:ip:1', 2)).toBe(0);
    await limiter.undo('room-password:ip:1');
    await limiter.undo('room-password:ip:1');
    await limiter.undo('never-hit');
    expect(await limiter.hit('room-password:ip:1', 1, 60)).toBe(0);
    expect(await limiter.hit('room-password:ip:1', 1, 60)).toBe(60);
    now += 60_000;
    await limiter.undo('room-password:ip:1');
    expect(await limiter.hit('room-password:ip:1', 1, 60)).toBe(0);
  });
});
