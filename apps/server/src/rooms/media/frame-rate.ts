// Frames per second and bitrate over the last few seconds, counted where a source emits them: the admin's room
// list and the metrics read them without subscribing (a subscription would start a lazy capture nobody watches).
const WINDOW_MS = 5000;

export class FrameRate {
  private readonly stamps: number[] = [];
  private readonly sizes: number[] = [];
  private bytes = 0;

  tick(size = 0, now = performance.now()): void {
    this.stamps.push(now);
    this.sizes.push(size);
    this.bytes += size;
    this.trim(now);
  }

  /** Frames per second over the window; 0 when nothing was emitted in it. */
  perSecond(now = performance.now()): number {
    return (this.stamps.length * 1000) / this.span(now);
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
