// One finger on the room's picture, as a phone's own browser reads it: a tap clicks, a swipe scrolls the page
// under the finger (a phone has no wheel, and a remote Chromium does not scroll on a mouse drag), and a finger held
// still before it moves (a long press) drags as a mouse does (selecting text, moving a slider). The stage turns
// the gesture's outcomes into the input protocol's pointer and wheel messages.

/** A finger that moves less than this (CSS pixels) is still tapping. */
export const TAP_SLOP_PX = 10;
/** Held this long without moving, the finger drags instead of scrolling. */
export const LONG_PRESS_MS = 450;

export type TTouchMode = 'pending' | 'scrolling' | 'dragging';

interface TPoint {
  x: number;
  y: number;
}

export class TouchGesture {
  mode: TTouchMode = 'pending';
  private last: TPoint;

  constructor(
    readonly pointerId: number,
    /** Where the finger came down (client coordinates). */
    readonly start: TPoint,
  ) {
    this.last = start;
  }

  /**
   * The finger moved to `at`: the distance the page should scroll (positive: down and right, the way the content
   * moves opposite to the finger), or null when this move scrolls nothing (still a tap, or a drag).
   */
  move(at: TPoint): { deltaX: number; deltaY: number } | null {
    if (this.mode === 'dragging') return null;
    if (this.mode === 'pending') {
      if (Math.hypot(at.x - this.start.x, at.y - this.start.y) < TAP_SLOP_PX) return null;
      this.mode = 'scrolling';
    }
    const delta = { deltaX: this.last.x - at.x, deltaY: this.last.y - at.y };
    this.last = at;
    return delta;
  }

  /** The finger stayed still for LONG_PRESS_MS: true when the gesture becomes a drag now. */
  hold(): boolean {
    if (this.mode !== 'pending') return false;
    this.mode = 'dragging';
    return true;
  }
}
