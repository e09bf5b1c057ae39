import { describe, expect, it } from 'vitest';
import { bitrateOptions, connectionOptions, frameRateOptions, resolutionOptions } from './room-options';

const free = { maxWidth: 1280, maxHeight: 720, maxFrameRate: 30, maxBitrateKbps: 2500, maxConnections: 4 };

describe('create-room choices', () => {
  it('never offer more than the plan allows, and always offer its maximum first', () => {
    const sizes = resolutionOptions(free);
    expect(sizes[0]).toEqual({ width: 1280, height: 720 });
    expect(sizes.every((size) => size.width <= 1280 && size.height <= 720)).toBe(true);
    expect(frameRateOptions(free)[0]).toBe(30);
    expect(Math.max(...frameRateOptions(free))).toBe(30);
    expect(bitrateOptions(free)).toEqual([2500, 2000, 1500, 1000, 500]);
    expect(connectionOptions(free)).toEqual([4, 3, 2, 1]);
  });

  it('offers an unusual plan maximum as it is', () => {
    expect(resolutionOptions({ ...free, maxWidth: 1000, maxHeight: 700 })[0]).toEqual({
      width: 1000,
      height: 700,
    });
  });
});
