// The room's one picture: the CDP screencast of the active tab, shared by every participant. Chromium sends a
// JPEG whenever the page repaints (up to ~60/s); we pass on at most the room's frame rate and, when a frame is
// dropped for coming too soon, send the newest one when its slot comes, so the last change is never lost.
//
// Every frame is acknowledged at once. Holding acks to slow Chromium down to the cap was tried: it did not lower
// the browser's CPU measurably (rendering, not JPEG encoding, dominates) and a repaint Chromium skips while acks
// are held is never sent, so it needed refresh logic for no gain.
import type { CDPSession } from 'playwright-core';
import { FrameRate } from '../media/frame-rate';
import type { MediaSource, TMediaChunk } from '../room-session';

interface TScreencastFrame {
  data: string;
  sessionId: number;
}

export interface TScreencastOptions {
  width: number;
  height: number;
  maxFrameRate: number;
  /** JPEG quality 0..100; 70 keeps text readable at about a third of the bytes of 90. */
  quality?: number;
  /**
   * Capture only while someone subscribes (the fallback beside an H.264 stream, which most participants use);
   * otherwise the capture runs from the first tab on, so latestKeyframe() always has the page.
   */
  lazy?: boolean;
  onListenerError?(error: unknown): void;
}

/** How long a started capture may stay silent before it is started again, and how often that is tried. */
const FIRST_FRAME_WAIT_MS = 1000;
const FIRST_FRAME_RETRIES = 5;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

export class ScreencastSource implements MediaSource {
  readonly codec = 'jpeg' as const;
  /** Frames Chromium sent and frames passed on, for the benchmark and diagnostics. */
  readonly stats = { received: 0, emitted: 0 };

  private readonly listeners = new Set<(chunk: TMediaChunk) => void>();
  private readonly frameRate = new FrameRate();
  private readonly interval: number;
  // Frames arrive with a few ms of jitter; without slack a 30 fps page under a 30 fps cap would lose every other.
  private readonly slack: number;
  private latest: TMediaChunk | undefined;
  private lastEmitAt = Number.NEGATIVE_INFINITY;
  private pending: { frame: TScreencastFrame; arrivedAt: number } | undefined;
  private trailing: NodeJS.Timeout | undefined;
  private current: { cdp: CDPSession; onFrame: (frame: TScreencastFrame) => void } | undefined;
  /** The active tab's session: captured whenever a capture should run. */
  private target: CDPSession | undefined;
  private switching: Promise<void> = Promise.resolve();
  private stopped = false;
  /** Frames from the capture now running; a capture that never sends one is started again (see switchTo). */
  private framesSinceStart = 0;
  private firstFrameTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: TScreencastOptions) {
    this.interval = 1000 / Math.max(1, options.maxFrameRate);
    this.slack = Math.min(5, this.interval * 0.2);
  }

  subscribe(listener: (chunk: TMediaChunk) => void): () => void {
    this.listeners.add(listener);
    if (this.options.lazy) this.reconcile();
    return () => {
      if (this.listeners.delete(listener) && this.options.lazy) this.reconcile();
    };
  }

  rate(): number {
    return this.frameRate.perSecond();
  }

  kbps(): number {
    return this.frameRate.kbps();
  }

  latestKeyframe(): TMediaChunk | undefined {
    return this.latest;
  }

  /** Captures this tab from now on (the active tab changed). Calls are applied in order. */
  follow(cdp: CDPSession): Promise<void> {
    this.target = cdp;
    return this.reconcile();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.switching;
    await this.detach();
  }

  /** Brings the capture in line with the active tab and, when lazy, with whether anyone watches. */
  private reconcile(): Promise<void> {
    this.switching = this.switching.then(() => this.switchTo()).catch(() => {});
    return this.switching;
  }

  private async switchTo(): Promise<void> {
    const watched = !this.options.lazy || this.listeners.size > 0;
    const cdp = this.stopped || !watched ? undefined : this.target;
    if (this.current?.cdp === cdp) return;
    await this.detach();
    // A lazy capture that stops forgets its picture: a later joiner must not see a page from minutes ago.
    if (this.options.lazy && !cdp) this.latest = undefined;
    if (!cdp) return;
    const onFrame = (frame: TScreencastFrame) => this.onFrame(cdp, frame);
    this.current = { cdp, onFrame };
    cdp.on('Page.screencastFrame', onFrame);
    this.expectFirstFrame(cdp, 0);
    // Not awaited beyond the wait: a start that hangs must not hold up every later switch.
    await Promise.race([this.startScreencast(cdp).catch(() => {}), sleep(FIRST_FRAME_WAIT_MS)]);
  }

  /**
   * A capture started while the tab's page is still being swapped into its renderer process (a room's first
   * navigation, right after Start) now and then gets no answer to Page.startScreencast and no frame, ever: about
   * 1 start in 40 here (bench:start), its watchers left without a picture for good. A start brings a frame of the
   * page as it is, so a capture silent this long is stopped and started again, a few times at most.
   */
  private expectFirstFrame(cdp: CDPSession, attempt: number): void {
    clearTimeout(this.firstFrameTimer);
    this.framesSinceStart = 0;
    if (attempt >= FIRST_FRAME_RETRIES) return;
    this.firstFrameTimer = setTimeout(() => {
      if (this.current?.cdp !== cdp || this.framesSinceStart > 0 || this.stopped) return;
      void cdp.send('Page.stopScreencast').catch(() => {});
      void this.startScreencast(cdp).catch(() => {});
      this.expectFirstFrame(cdp, attempt + 1);
    }, FIRST_FRAME_WAIT_MS);
    this.firstFrameTimer.unref();
  }

  private startScreencast(cdp: CDPSession): Promise<unknown> {
    return cdp.send('Page.startScreencast', {
      format: 'jpeg',
      quality: this.options.quality ?? 70,
      maxWidth: this.options.width,
      maxHeight: this.options.height,
      everyNthFrame: 1,
    });
  }

  private async detach(): Promise<void> {
    clearTimeout(this.firstFrameTimer);
    this.firstFrameTimer = undefined;
    clearTimeout(this.trailing);
    this.trailing = undefined;
    // A frame of the previous tab must not show up after the switch.
    this.pending = undefined;
    const previous = this.current;
    this.current = undefined;
    if (!previous) return;
    previous.cdp.off('Page.screencastFrame', previous.onFrame);
    await previous.cdp.send('Page.stopScreencast').catch(() => {});
  }

  private onFrame(cdp: CDPSession, frame: TScreencastFrame): void {
    // Chromium keeps at most three frames unacknowledged; acking each at once keeps the capture flowing.
    void cdp.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => {});
    if (this.current?.cdp !== cdp) return;
    this.framesSinceStart++;
    this.stats.received++;
    this.route(frame, performance.now());
  }

  /** Emits the frame now if its slot has come, else keeps it as the newest candidate for the next slot. */
  private route(frame: TScreencastFrame, now: number): void {
    const wait = this.lastEmitAt + this.interval - this.slack - now;
    if (wait <= 0) {
      clearTimeout(this.trailing);
      this.trailing = undefined;
      this.pending = undefined;
      this.emit(frame, now);
      return;
    }
    this.pending = { frame, arrivedAt: now };
    this.trailing ??= setTimeout(() => {
      this.trailing = undefined;
      const pending = this.pending;
      this.pending = undefined;
      if (pending && !this.stopped) this.emit(pending.frame, pending.arrivedAt);
    }, wait + this.slack);
  }

  private emit(frame: TScreencastFrame, timestamp: number): void {
    const chunk: TMediaChunk = {
      codec: 'jpeg',
      keyframe: true,
      timestamp,
      data: Buffer.from(frame.data, 'base64'),
      width: this.options.width,
      height: this.options.height,
    };
    this.frameRate.tick(chunk.data.byteLength);
    this.latest = chunk;
    this.lastEmitAt = performance.now();
    this.stats.emitted++;
    for (const listener of this.listeners) {
      try {
        listener(chunk);
      } catch (error) {
        this.options.onListenerError?.(error);
      }
    }
  }
}
