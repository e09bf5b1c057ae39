import { describe, expect, it } from 'vitest';
import { fitPicture, modifierBits, normalisePoint, pointerButton, wheelPixels } from './picture-geometry';

describe('fitPicture', () => {
  it('letterboxes a wide picture in a tall box (bars above and below)', () => {
    expect(fitPicture({ width: 390, height: 600 }, { width: 1280, height: 720 })).toEqual({
      left: 0,
      top: (600 - 219.375) / 2,
      width: 390,
      height: 219.375,
    });
  });

  it('pillarboxes a picture in a wide box (bars left and right)', () => {
    const rect = fitPicture({ width: 2000, height: 720 }, { width: 1280, height: 720 });
    expect(rect).toEqual({ left: 360, top: 0, width: 1280, height: 720 });
  });

  it('scales up a small picture and gives an empty rect for an empty box', () => {
    expect(fitPicture({ width: 800, height: 600 }, { width: 400, height: 300 })).toEqual({
      left: 0,
      top: 0,
      width: 800,
      height: 600,
    });
    expect(fitPicture({ width: 0, height: 600 }, { width: 400, height: 300 }).width).toBe(0);
  });
});

describe('normalisePoint', () => {
  const shown = { left: 100, top: 50, width: 400, height: 200 };

  it('maps the corners and the centre of the shown picture to 0..1', () => {
    expect(normalisePoint({ x: 100, y: 50 }, shown)).toEqual({ x: 0, y: 0 });
    expect(normalisePoint({ x: 500, y: 250 }, shown)).toEqual({ x: 1, y: 1 });
    expect(normalisePoint({ x: 300, y: 150 }, shown)).toEqual({ x: 0.5, y: 0.5 });
  });

  it('clamps positions outside the picture (in the bars, or a drag leaving it)', () => {
    expect(normalisePoint({ x: 0, y: 400 }, shown)).toEqual({ x: 0, y: 1 });
  });
});

describe('input helpers', () => {
  it('turns line and page wheel deltas into pixels, bounded', () => {
    expect(wheelPixels({ deltaX: 0, deltaY: 3, deltaMode: 1 }, 800)).toEqual({ deltaX: 0, deltaY: 48 });
    expect(wheelPixels({ deltaX: 1, deltaY: 0, deltaMode: 2 }, 800)).toEqual({ deltaX: 800, deltaY: 0 });
    expect(wheelPixels({ deltaX: 0, deltaY: 1e9, deltaMode: 0 }, 800).deltaY).toBe(10_000);
  });

  it('encodes modifiers and buttons as the protocol expects', () => {
    expect(modifierBits({ altKey: true, ctrlKey: true, metaKey: false, shiftKey: true })).toBe(11);
    expect(pointerButton(0)).toBe('left');
    expect(pointerButton(2)).toBe('right');
    expect(pointerButton(-1)).toBe('none');
  });
});
