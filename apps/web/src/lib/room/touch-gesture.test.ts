import { describe, expect, it } from 'vitest';
import { TAP_SLOP_PX, TouchGesture } from './touch-gesture';

describe('TouchGesture', () => {
  it('stays a tap while the finger moves less than the slop', () => {
    const gesture = new TouchGesture(1, { x: 100, y: 100 });
    expect(gesture.move({ x: 103, y: 104 })).toBeNull();
    expect(gesture.mode).toBe('pending');
  });

  it('scrolls opposite to the finger once past the slop, the first step covering the whole way so far', () => {
    const gesture = new TouchGesture(1, { x: 100, y: 300 });
    expect(gesture.move({ x: 100, y: 300 - TAP_SLOP_PX - 5 })).toEqual({
      deltaX: 0,
      deltaY: TAP_SLOP_PX + 5,
    });
    expect(gesture.mode).toBe('scrolling');
    // Back down a little: the page scrolls back up by as much.
    expect(gesture.move({ x: 90, y: 290 })).toEqual({ deltaX: 10, deltaY: -5 });
  });

  it('drags instead after a long press, and a swipe already under way stays a swipe', () => {
    const pressed = new TouchGesture(1, { x: 100, y: 100 });
    expect(pressed.hold()).toBe(true);
    expect(pressed.mode).toBe('dragging');
    expect(pressed.move({ x: 200, y: 200 })).toBeNull();

    const swiping = new TouchGesture(2, { x: 100, y: 100 });
    swiping.move({ x: 100, y: 150 });
    expect(swiping.hold()).toBe(false);
    expect(swiping.mode).toBe('scrolling');
  });
});
