// A few room runs started ahead of time (sandbox, display, sound, browser on a fresh profile) for the shape the
// next room most likely has, so that a Start only opens the room's page. The engine says what a run is, how one
// starts and ends, and how many fit beside its rooms; this module keeps the count, matches shapes, refills in the
// background and discards entries that died. A run leaves the pool once, to a room, and is never given back.
import type { TRoomLogger } from '../room-logger';

/** What a warm run is made for: its screen, and its encoders' frame rate and bitrate. */
export interface TWarmShape {
  width: number;
  height: number;
  maxFrameRate: number;
  videoBitrateKbps: number;
}

export interface TWarmPoolOptions<T> {
  /** The most warm runs kept; 0 keeps none. */
  size: number;
  /** Starts a run of this shape; `lost` is to be called if one of its processes ends by itself. */
  launch(shape: TWarmShape, lost: () => void): Promise<T>;
  /** Ends a run (it never served a room). */
  discard(run: T): Promise<void>;
  /** How many runs the rooms leave room for right now: 0 while a room starts (the room gets the CPU first). */
  room(): number;
  logger: TRoomLogger;
}

interface TWarmEntry<T> {
  key: string;
  /** Set once the run is up. */
  run?: T;
  /** Resolves to the run, or undefined when it failed to start (nothing of it is left then). */
  ready: Promise<T | undefined>;
}

/** After a room starts, the refill waits this long: the room's first picture goes before a browser launch. */
export const REFILL_DELAY_MS = 1500;
/**
 * After a warm run failed to start, the next try waits this long, twice as long after each failure in a row, up
 * to the most: a machine where browsers cannot start is not hammered, nor its log filled.
 */
const RETRY_DELAY_MS = 30_000;
const MAX_RETRY_DELAY_MS = 600_000;

const keyOf = (shape: TWarmShape) =>
  `${shape.width}x${shape.height}@${shape.maxFrameRate}/${shape.videoBitrateKbps}`;

export class WarmPool<T> {
  private readonly entries: TWarmEntry<T>[] = [];
  /** The ends of runs removed from the pool (evicted, dead, of an old shape): closing waits for them. */
  private readonly settling = new Set<Promise<unknown>>();
  private shape: TWarmShape | undefined;
  private timer: NodeJS.Timeout | undefined;
  private dueAt = Number.POSITIVE_INFINITY;
  private filling = false;
  /** Failed starts in a row. */
  private failures = 0;
  private closed = false;

  constructor(private readonly options: TWarmPoolOptions<T>) {}

  /** Warm runs up or starting: each holds a capacity slot. */
  count(): number {
    return this.entries.length;
  }

  /** Warm runs up, ready to be taken. */
  ready(): number {
    return this.entries.filter((entry) => entry.run !== undefined).length;
  }

  /**
   * Keeps runs of this shape from now on; runs of another shape are ended. `soon` refills without waiting
   * (nothing is starting: the server just came up, or no room started yet).
   */
  want(shape: TWarmShape, options: { soon?: boolean } = {}): void {
    if (this.closed || this.options.size === 0) return;
    const key = keyOf(shape);
    this.shape = shape;
    for (const entry of [...this.entries]) {
      if (entry.key !== key) this.remove(entry);
    }
    this.schedule(options.soon ? 0 : REFILL_DELAY_MS);
  }

  /** The shape runs are kept for; undefined until a room started or want() was told one. */
  wanted(): TWarmShape | undefined {
    return this.shape;
  }

  /**
   * A run of this shape for a room, out of the pool for good: one that is up if there is, else one still starting
   * (sooner than a cold start). Undefined when none matches; the promise gives undefined if its start failed.
   */
  take(shape: TWarmShape): Promise<T | undefined> | undefined {
    const key = keyOf(shape);
    const matching = this.entries.filter((entry) => entry.key === key);
    const entry = matching.find((candidate) => candidate.run !== undefined) ?? matching[0];
    if (!entry) return undefined;
    this.entries.splice(this.entries.indexOf(entry), 1);
    return entry.ready;
  }

  /**
   * Ends one warm run to free its slot for a room: one of another shape than `keep` first, one that is up before
   * one still starting (that one ends as soon as it is up). False when the pool is empty.
   */
  evict(keep?: TWarmShape): boolean {
    const key = keep ? keyOf(keep) : undefined;
    const rank = (entry: TWarmEntry<T>) => (entry.key === key ? 2 : 0) + (entry.run === undefined ? 1 : 0);
    const [victim] = [...this.entries].sort((a, b) => rank(a) - rank(b));
    if (!victim) return false;
    this.options.logger.info({ shape: victim.key }, 'warm room browser ended to make room for a room');
    this.remove(victim);
    return true;
  }

  /** Refills after `delayMs` unless a refill is already due sooner. */
  schedule(delayMs = REFILL_DELAY_MS): void {
    if (this.closed || this.options.size === 0 || !this.shape) return;
    const dueAt = performance.now() + delayMs;
    if (this.timer && this.dueAt <= dueAt) return;
    clearTimeout(this.timer);
    this.dueAt = dueAt;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.dueAt = Number.POSITIVE_INFINITY;
      void this.fill();
    }, delayMs);
    // A pending refill never keeps the process alive.
    this.timer.unref();
  }

  /** Ends every warm run, including those still starting; nothing is started afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    for (const entry of [...this.entries]) this.remove(entry);
    while (this.settling.size > 0) await Promise.all([...this.settling]);
  }

  /** Starts runs one at a time (each launch is a burst of CPU) until the pool is full or the rooms need the slots. */
  private async fill(): Promise<void> {
    if (this.filling) return;
    this.filling = true;
    try {
      while (
        !this.closed &&
        this.shape &&
        this.entries.length < Math.min(this.options.size, this.options.room())
      ) {
        const shape = this.shape;
        const entry: TWarmEntry<T> = { key: keyOf(shape), ready: Promise.resolve(undefined) };
        let died = false;
        const lost = () => {
          if (died) return;
          died = true;
          // Still in the pool: discarded and replaced. Already taken: the room that took it sees it itself.
          if (!this.entries.includes(entry)) return;
          this.options.logger.warn({ shape: entry.key }, 'a warm room browser exited: replacing it');
          this.remove(entry);
          this.schedule(0);
        };
        entry.ready = this.options.launch(shape, lost).then(
          (run) => {
            entry.run = run;
            return run;
          },
          (error: unknown) => {
            this.options.logger.warn({ err: error, shape: entry.key }, 'a warm room browser failed to start');
            return undefined;
          },
        );
        this.entries.push(entry);
        const run = await entry.ready;
        if (run === undefined) {
          if (this.entries.includes(entry)) this.entries.splice(this.entries.indexOf(entry), 1);
          this.schedule(Math.min(MAX_RETRY_DELAY_MS, RETRY_DELAY_MS * 2 ** this.failures++));
          return;
        }
        this.failures = 0;
      }
    } finally {
      this.filling = false;
    }
  }

  private remove(entry: TWarmEntry<T>): void {
    const index = this.entries.indexOf(entry);
    if (index >= 0) this.entries.splice(index, 1);
    const ended = entry.ready
      .then((run) => (run === undefined ? undefined : this.options.discard(run)))
      .catch((error: unknown) =>
        this.options.logger.error({ err: error }, 'a warm room browser did not end cleanly'),
      );
    this.settling.add(ended);
    void ended.finally(() => this.settling.delete(ended));
  }
}
