import { describe, expect, it } from 'vitest';
import { FREEZE_GAP_MS, FrameRate } from './frame-rate';

describe('FrameRate', () => {
  it('counts a gap of a second or more within one capture as a freeze', () => {
    const rate = new FrameRate();
    for (let at = 0; at <= 1000; at += 40) rate.tick(100, at);
    expect(rate.freezes()).toBe(0);
    rate.tick(100, 1000 + FREEZE_GAP_MS);
    rate.tick(100, 1040 + FREEZE_GAP_MS);
    expect(rate.freezes()).toBe(1);
    rate.tick(100, 1040 + 3 * FREEZE_GAP_MS);
    expect(rate.freezes()).toBe(2);
  });

  it('does not count the pause of a capture stopped on purpose', () => {
    const rate = new FrameRate();
    rate.tick(100, 0);
    rate.pause();
    rate.tick(100, 60_000);
    rate.tick(100, 60_040);
    expect(rate.freezes()).toBe(0);
    expect(rate.perSecond(60_040)).toBeGreaterThan(0);
  });
});
