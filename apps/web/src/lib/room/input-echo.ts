// Measures this participant's input → picture latency end to end, on their own screen: when they press the
// picture or a key, the picture shown at that moment is sampled (a small grid around the pointer, or the whole
// picture for a key), and every picture painted after it is sampled the same way until one differs: the time from
// the input's event to that paint is the latency. Sampling is a few dozen pixels and runs only while an input
// waits for its echo (at most a second), so the player pays nothing otherwise. An input whose effect shows
// nowhere near the pointer (or a page that moves by itself there) gives no sample or an early one: the figure is
// the median of several.

import type { TPicture } from './frame-decoder';

/** A point on the picture, 0..1 on each axis (as input messages carry it). */
export interface TPoint {
  x: number;
  y: number;
}

/** RGBA of a small grid sampled from a picture, or null where sampling is not possible. */
export type TSampler = (picture: TPicture, point: TPoint | null) => Uint8ClampedArray | null;

/** After this long without a changed picture the input is given up on (it changed nothing visible). */
export const ECHO_GIVE_UP_MS = 1000;
/** A grid cell whose colour moved by more than this (mean of R, G, B, 0..255) counts as changed. */
const CHANGED_BY = 24;

/** Whether any cell of two samples of the same grid differs by more than compression noise. */
export function samplesDiffer(a: Uint8ClampedArray, b: Uint8ClampedArray): boolean {
  if (a.length !== b.length) return true;
  for (let i = 0; i < a.length; i += 4) {
    const moved =
      (Math.abs((a[i] ?? 0) - (b[i] ?? 0)) +
        Math.abs((a[i + 1] ?? 0) - (b[i + 1] ?? 0)) +
        Math.abs((a[i + 2] ?? 0) - (b[i + 2] ?? 0))) /
      3;
    if (moved > CHANGED_BY) return true;
  }
  return false;
}

export class InputEcho {
  private pending: { at: number; point: TPoint | null; before: Uint8ClampedArray } | null = null;

  constructor(private readonly sample: TSampler) {}

  /**
   * An input at performance time `at` (its event's timeStamp) on `point` (null: a key), with `shown` on screen.
   * While an earlier input still waits for its echo, that one is measured (the first keypress of a word, say).
   */
  input(at: number, point: TPoint | null, shown: TPicture | null): void {
    if (this.pending && at - this.pending.at < ECHO_GIVE_UP_MS) return;
    this.pending = null;
    if (!shown) return;
    const before = this.sample(shown, point);
    if (before) this.pending = { at, point, before };
  }

  /** Whether an input waits for its echo (the player samples pictures only then). */
  get waiting(): boolean {
    return this.pending !== null;
  }

  /** `picture` is painted at `now`: the waiting input's latency if this is the first picture to show it. */
  painted(picture: TPicture, now: number): number | null {
    const pending = this.pending;
    if (!pending) return null;
    if (now - pending.at > ECHO_GIVE_UP_MS) {
      this.pending = null;
      return null;
    }
    const after = this.sample(picture, pending.point);
    if (!after || !samplesDiffer(pending.before, after)) return null;
    this.pending = null;
    return now - pending.at;
  }
}

/** Samples pictures through a small canvas kept for reading: 8×8 around a point, 16×9 of the whole picture. */
export function canvasSampler(): TSampler {
  let context: OffscreenCanvasRenderingContext2D | null = null;
  return (picture, point) => {
    try {
      if (!context) {
        if (typeof OffscreenCanvas === 'undefined') return null;
        context = new OffscreenCanvas(16, 9).getContext('2d', { willReadFrequently: true });
        if (!context) return null;
      }
      const width = 'displayWidth' in picture ? picture.displayWidth : picture.width;
      const height = 'displayHeight' in picture ? picture.displayHeight : picture.height;
      if (!point) {
        context.drawImage(picture, 0, 0, width, height, 0, 0, 16, 9);
        return context.getImageData(0, 0, 16, 9).data;
      }
      // About a button's size around the pointer: 8 % of the picture's short side.
      const size = Math.max(8, Math.round(Math.min(width, height) * 0.08));
      const left = Math.min(Math.max(0, Math.round(point.x * width - size / 2)), Math.max(0, width - size));
      const top = Math.min(Math.max(0, Math.round(point.y * height - size / 2)), Math.max(0, height - size));
      context.drawImage(picture, left, top, size, size, 0, 0, 8, 8);
      return context.getImageData(0, 0, 8, 8).data;
    } catch {
      return null;
    }
  };
}
