import { describe, expect, it } from 'vitest';
import { streamDefaultsFor } from './room-settings';

const PRO = { maxWidth: 1920, maxHeight: 1080, maxFrameRate: 60, maxBitrateKbps: 8000, maxConnections: 10 };
const FREE = { maxWidth: 1280, maxHeight: 720, maxFrameRate: 30, maxBitrateKbps: 2500, maxConnections: 4 };

describe('a new room’s stream settings', () => {
  it('are 720p at 30 fps and 3 Mbit/s on a plan that allows more, not the plan’s maximum', () => {
    expect(streamDefaultsFor(PRO)).toEqual({
      width: 1280,
      height: 720,
      maxFrameRate: 30,
      videoBitrateKbps: 3000,
      maxConnections: 10,
    });
  });

  it('stay within a plan that allows less', () => {
    expect(streamDefaultsFor(FREE)).toEqual({
      width: 1280,
      height: 720,
      maxFrameRate: 30,
      videoBitrateKbps: 2500,
      maxConnections: 4,
    });
    // Smaller than 720p in one direction: the plan's own size, never a squashed picture.
    expect(
      streamDefaultsFor({
        maxWidth: 1920,
        maxHeight: 600,
        maxFrameRate: 24,
        maxBitrateKbps: 1000,
        maxConnections: 2,
      }),
    ).toEqual({ width: 1920, height: 600, maxFrameRate: 24, videoBitrateKbps: 1000, maxConnections: 2 });
  });
});
