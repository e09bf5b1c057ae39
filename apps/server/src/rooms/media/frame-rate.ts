// Frames per second, bitrate and freezes, counted where a source emits them: the admin's room list and the metrics
// read them without subscribing (a subscription would start a lazy capture nobody watches).
const WINDOW_MS = 5000;
/**
 * A capture at a constant frame rate (the H.264 path grabs the display 15–30 times a second whatever it shows) that
 * sends nothing for this long has frozen for its viewers: a stalled display, encoder or room process.
 */
export const FREEZE_GAP_MS = 1000;

export class FrameRate {
  private readonly stamps: number[] = [];
  private readonly sizes: number[] = [];
  private bytes = 0;
  /** The last frame of the capture running now; undefined between captures, so an idle pause is not a freeze. */
  private last: number | undefined;
  private frozen = 0;

  tick(size = 0, now = performance.now()): void {
    if (this.last !== undefined && now - this.last >= FREEZE_GAP_MS) this.frozen++;
    this.last = now;
    this.stamps.push(now);
    this.sizes.push(size);
    this.bytes += size;
    this.trim(now);
  }

  /** Frames per second over the window; 0 when nothing was emitted in it. */
  perSecond(now = performance.now()): number {
    return (this.stamps.length * 1000) / this.span(now);
  }

  /** Gaps of FREEZE_GAP_MS or more between frames of one capture, since this counter was made. */
  freezes(): number {
    return this.frozen;
  }

  /** The capture stopped on purpose (nobody watches): the gap until it starts again is not a freeze. */
  pause(): void {
    this.last = undefined;
  }

  /** Kilobits per second over the window. */
  kbps(now = performance.now()): number {
    return (this.bytes * 8) / this.span(now);
  }

  private span(now: number): number {
    this.trim(now);
    const first = this.stamps[0] ?? now;
    return Math.max(1000, now - first);
  }

  private trim(now: number): void {
    let drop = 0;
    while (drop < this.stamps.length && (this.stamps[drop] ?? now) < now - WINDOW_MS) drop++;
    if (!drop) return;
    this.stamps.splice(0, drop);
    for (const size of this.sizes.splice(0, drop)) this.bytes -= size;
  }
}
