import { describe, expect, it } from 'vitest';
import type { TPicture } from './frame-decoder';
import { ECHO_GIVE_UP_MS, InputEcho, samplesDiffer, type TSampler } from './input-echo';

/** Pictures stand for one grey level each; the sampler returns a 2×2 grid of it. */
const picture = (level: number) => ({ level }) as unknown as TPicture;
const sampler: TSampler = (shown) => {
  const level = (shown as unknown as { level: number }).level;
  return new Uint8ClampedArray(Array.from({ length: 16 }, (_, i) => (i % 4 === 3 ? 255 : level)));
};

describe('InputEcho', () => {
  it('times an input to the first painted picture that differs from the one on screen', () => {
    const echo = new InputEcho(sampler);
    echo.input(100, { x: 0.5, y: 0.5 }, picture(40));
    expect(echo.waiting).toBe(true);
    // Compression noise is not a change; the new colour is.
    expect(echo.painted(picture(50), 130)).toBeNull();
    expect(echo.painted(picture(200), 165)).toBe(65);
    expect(echo.waiting).toBe(false);
  });

  it('measures the first of several quick inputs, and gives up on one that changed nothing', () => {
    const echo = new InputEcho(sampler);
    echo.input(0, null, picture(40));
    echo.input(30, null, picture(40));
    expect(echo.painted(picture(200), 80)).toBe(80);

    echo.input(1000, null, picture(40));
    expect(echo.painted(picture(40), 1000 + ECHO_GIVE_UP_MS + 1)).toBeNull();
    expect(echo.waiting).toBe(false);
  });

  it('waits for nothing before a picture is on screen', () => {
    const echo = new InputEcho(sampler);
    echo.input(0, null, null);
    expect(echo.waiting).toBe(false);
  });

  it('compares samples by colour, past compression noise', () => {
    expect(
      samplesDiffer(new Uint8ClampedArray([10, 10, 10, 255]), new Uint8ClampedArray([30, 30, 30, 255])),
    ).toBe(false);
    expect(
      samplesDiffer(new Uint8ClampedArray([10, 10, 10, 255]), new Uint8ClampedArray([90, 10, 10, 255])),
    ).toBe(true);
  });
});
