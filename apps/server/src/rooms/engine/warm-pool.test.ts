// The pool's rules with runs that are plain objects: which run a start gets, which one gives way, when the pool
// refills and when it backs off. Real browsers in it: warm-pool.integration.test.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../room-logger';
import { REFILL_DELAY_MS, type TWarmShape, WarmPool } from './warm-pool';

const HD: TWarmShape = { width: 1280, height: 720, maxFrameRate: 30, videoBitrateKbps: 2000 };
const SD: TWarmShape = { width: 640, height: 360, maxFrameRate: 30, videoBitrateKbps: 1000 };

interface TFakeRun {
  id: number;
  shape: TWarmShape;
  lost: () => void;
}

function pool(options: { size?: number; room?: () => number; launchMs?: number; fail?: () => boolean } = {}) {
  let next = 0;
  const launched: TFakeRun[] = [];
  const discarded: number[] = [];
  const warm = new WarmPool<TFakeRun>({
    size: options.size ?? 1,
    room: options.room ?? (() => 10),
    logger: silentLogger,
    launch: async (shape, lost) => {
      await new Promise((resolve) => setTimeout(resolve, options.launchMs ?? 100));
      if (options.fail?.()) throw new Error('no browser here');
      const run = { id: ++next, shape, lost };
      launched.push(run);
      return run;
    },
    discard: async (run) => {
      discarded.push(run.id);
    },
  });
  return { warm, launched, discarded };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('WarmPool', () => {
  it('starts nothing until it knows a shape, then fills up to its size', async () => {
    const { warm, launched } = pool({ size: 2 });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(launched).toEqual([]);
    warm.want(HD, { soon: true });
    await vi.advanceTimersByTimeAsync(1000);
    expect(warm.ready()).toBe(2);
    expect(launched.map((run) => run.shape)).toEqual([HD, HD]);
  });

  it('gives a start of its shape a run once, and none of another shape', async () => {
    const { warm } = pool();
    warm.want(HD, { soon: true });
    await vi.advanceTimersByTimeAsync(1000);
    expect(warm.take(SD)).toBeUndefined();
    const taken = await warm.take(HD);
    expect(taken?.id).toBe(1);
    expect(warm.take(HD)).toBeUndefined();
    expect(warm.count()).toBe(0);
  });

  it('hands out a run still starting rather than none', async () => {
    const { warm } = pool({ launchMs: 500 });
    warm.want(HD, { soon: true });
    await vi.advanceTimersByTimeAsync(100);
    expect(warm.ready()).toBe(0);
    const taken = warm.take(HD);
    expect(taken).toBeDefined();
    await vi.advanceTimersByTimeAsync(500);
    expect((await taken)?.id).toBe(1);
  });

  it('refills after a take, once the rooms leave it room', async () => {
    let room = 0;
    const { warm, launched } = pool({ room: () => room });
    warm.want(HD, { soon: true });
    await vi.advanceTimersByTimeAsync(1000);
    expect(launched).toHaveLength(0);
    room = 1;
    warm.schedule();
    await vi.advanceTimersByTimeAsync(REFILL_DELAY_MS + 200);
    expect(warm.ready()).toBe(1);
    await warm.take(HD);
    warm.schedule();
    await vi.advanceTimersByTimeAsync(REFILL_DELAY_MS - 100);
    expect(launched).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(400);
    expect(launched).toHaveLength(2);
    expect(warm.ready()).toBe(1);
  });

  it('ends runs of an old shape when it learns a new one, and evicts another shape before its own', async () => {
    const { warm, discarded } = pool({ size: 2 });
    warm.want(HD, { soon: true });
    await vi.advanceTimersByTimeAsync(1000);
    warm.want(SD);
    await vi.advanceTimersByTimeAsync(0);
    expect(discarded).toEqual([1, 2]);
    await vi.advanceTimersByTimeAsync(REFILL_DELAY_MS + 500);
    expect(warm.ready()).toBe(2);
    expect(warm.evict(SD)).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(discarded).toHaveLength(3);
    expect(warm.count()).toBe(1);
  });

  it('replaces a run that died while it waited, and not one a room has taken', async () => {
    const { warm, launched, discarded } = pool();
    warm.want(HD, { soon: true });
    await vi.advanceTimersByTimeAsync(1000);
    launched[0]!.lost();
    await vi.advanceTimersByTimeAsync(500);
    expect(discarded).toEqual([1]);
    expect(warm.ready()).toBe(1);
    const taken = (await warm.take(HD))!;
    taken.lost();
    await vi.advanceTimersByTimeAsync(0);
    expect(discarded).toEqual([1]);
  });

  it('backs off after a failed start instead of trying again at once', async () => {
    let failing = true;
    const { warm, launched } = pool({ fail: () => failing });
    warm.want(HD, { soon: true });
    await vi.advanceTimersByTimeAsync(20_000);
    expect(warm.count()).toBe(0);
    failing = false;
    await vi.advanceTimersByTimeAsync(15_000);
    expect(launched).toHaveLength(1);
  });

  it('ends every run on close, one still starting included, and starts none after', async () => {
    const { warm, discarded } = pool({ size: 2, launchMs: 500 });
    warm.want(HD, { soon: true });
    await vi.advanceTimersByTimeAsync(700);
    expect(warm.ready()).toBe(1);
    const closed = warm.close();
    await vi.advanceTimersByTimeAsync(500);
    await closed;
    expect(discarded).toEqual([1, 2]);
    warm.want(HD, { soon: true });
    await vi.advanceTimersByTimeAsync(5000);
    expect(warm.count()).toBe(0);
  });
});
