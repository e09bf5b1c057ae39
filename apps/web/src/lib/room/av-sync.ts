// Keeping picture and sound together. Both carry timestamps on the server's clock; the sound is the clock: the
// AudioWorklet says which timestamp it rendered at which AudioContext time, the context says when that time
// reaches the speakers, so we know the timestamp heard right now. Decoded pictures wait until the sound comes
// within `leadMs` of them: a picture may run that much ahead of its sound (people notice late sound far less than
// early sound, and every millisecond held here is latency the watcher sees), so the picture waits only for the
// sound's delay beyond that. When pictures arrive later than the sound, the sound is delayed by the difference.
// Both delays are capped, so latency never builds up; the sound's own buffer is kept as small as its arrival
// jitter allows (jitter-buffer.ts), which is what keeps the pictures' wait short.
// The participant in control is the exception: their pointer and keys must show at once, so their pictures are
// never held (the sound may trail the picture; a lagging mouse is worse).

/** From the worklet: the sample frame rendered at `contextTime` had this server timestamp (null: silence). */
export interface TSoundReport {
  contextTime: number;
  timestamp: number | null;
}

/** AudioContext.getOutputTimestamp(): the context time at the speakers at `performanceTime`. */
export interface TOutputTimestamp {
  contextTime: number;
  performanceTime: number;
}

export const AV_SYNC = {
  /** A picture this close ahead of the sound counts as due: half a frame at 60 fps. */
  toleranceMs: 8,
  /**
   * How far a watcher's picture may run ahead of the sound it belongs to (the sound is that much late). Lip sync
   * holds within ±45 ms (ITU-R BT.1359 puts detection at 45 ms early and 125 ms late sound); the room's own sound
   * already comes a little after its picture, so this keeps a margin below 45.
   */
  leadMs: 20,
  /** A picture never waits longer than this for the sound; past it the sound is off and the picture goes. */
  maxHoldMs: 300,
  /** Pictures waiting at most (also while the tab is hidden and nothing paints); the oldest go past it. */
  maxQueue: 12,
  /** A report older than this says nothing about the sound now (the worklet reports every ~50 ms). */
  staleReportMs: 250,
  /** The most the sound is delayed to wait for a late picture. */
  maxSoundDelayMs: 150,
  /** Changes of the sound delay smaller than this are not worth an audible skip. */
  soundDelayStepMs: 15,
  samples: 60,
  /** An offset measured longer ago than this says nothing about now: the figure goes rather than freezes. */
  freshMs: 2000,
  /** Packet stamps kept beyond the decoder's queue (its outputs trail it): half a second of 10 ms packets. */
  maxStampsAhead: 50,
} as const;

/** The server timestamp of the sound reaching the speakers at performance time `now`, or null. */
export function heardTimestamp(
  report: TSoundReport | null,
  output: TOutputTimestamp | null,
  now: number,
): number | null {
  if (!report || report.timestamp === null || !output) return null;
  const heardContextTime = output.contextTime + (now - output.performanceTime) / 1000;
  const elapsedMs = (heardContextTime - report.contextTime) * 1000;
  if (elapsedMs > AV_SYNC.staleReportMs) return null;
  return report.timestamp + elapsedMs;
}

/**
 * The sound delay that brings a picture lagging the sound back in line: `naturalOffsetMs` is the newest
 * picture's timestamp minus the heard one, measured with `currentMs` of sound delay already applied.
 */
export function nextSoundDelay(currentMs: number, naturalOffsetMs: number): number {
  const wanted = Math.min(AV_SYNC.maxSoundDelayMs, Math.max(0, currentMs - naturalOffsetMs));
  return Math.abs(wanted - currentMs) >= AV_SYNC.soundDelayStepMs ? Math.round(wanted) : currentMs;
}

/**
 * The server timestamps of the sound packets handed to the decoder and not yet out of it, oldest first. A decoder
 * gives each Opus packet's sound out in order, but stamps its output by counting samples from the first packet
 * (Chromium's AudioDecoder does): every packet lost on the way (the server drops sound for a socket that backs
 * up) would set all later sound that much earlier, and the picture would be held for sound already heard. So each
 * output takes the stamp of the packet it came from.
 */
export class PacketStamps {
  private readonly stamps: number[] = [];

  /** A packet stamped `timestamp` went to the decoder, which now queues `queued` (its decodeQueueSize). */
  decoding(timestamp: number, queued: number): void {
    this.stamps.push(timestamp);
    // Never this many in a working decoder: outputs went missing, and the oldest stamps belong to none.
    if (this.stamps.length > queued + AV_SYNC.maxStampsAhead) this.stamps.shift();
  }

  /** The stamp of the sound the decoder just gave out; `fallback` (its own) if none is known. */
  decoded(fallback: number): number {
    return this.stamps.shift() ?? fallback;
  }

  /** A new decoder starts from the next packet. */
  clear(): void {
    this.stamps.length = 0;
  }
}

interface TWaiting<T> {
  timestamp: number;
  picture: T;
  arrivedAt: number;
}

export interface TTake<T> {
  /** The picture to draw now, if any. */
  show: T | null;
  /** Pictures passed over: the caller closes them. */
  dropped: T[];
}

interface TOffset {
  at: number;
  value: number;
}

/** Decoded pictures waiting for their moment, and the offsets measured when they are shown. */
export class PicturePacer<T> {
  private readonly waiting: TWaiting<T>[] = [];
  /** Shown picture's timestamp − heard timestamp, at the moment it is drawn, while the sound is heard. */
  private readonly shownOffsets: TOffset[] = [];
  /** Newest decoded picture's timestamp − heard timestamp, before any holding. */
  private readonly naturalOffsets: TOffset[] = [];
  /** The server timestamp of the picture `take` handed out last. */
  shownTimestamp: number | null = null;

  get size(): number {
    return this.waiting.length;
  }

  /** Returns the pictures pushed out because too many wait, for the caller to close. */
  push(timestamp: number, picture: T, now: number): T[] {
    this.waiting.push({ timestamp, picture, arrivedAt: now });
    const over = this.waiting.length - AV_SYNC.maxQueue;
    return over > 0 ? this.waiting.splice(0, over).map((item) => item.picture) : [];
  }

  /**
   * `heard` is the sound's timestamp now, or null without sound: then the newest picture goes at once, as it
   * does when `hold` is false (the offsets are still measured). A picture up to `leadMs` ahead of the sound is due.
   * `heardNow` says whether a person hears that sound (not silence, not muted) and the picture moves: only then is
   * the shown picture's offset a lip sync anyone lives, and recorded.
   */
  take(heard: number | null, now: number, hold = true, leadMs = 0, heardNow = true): TTake<T> {
    const newest = this.waiting.at(-1);
    if (!newest) return { show: null, dropped: [] };
    let index = this.waiting.length - 1;
    if (heard !== null) {
      record(this.naturalOffsets, now, newest.timestamp - heard);
      if (hold) {
        const due = heard + AV_SYNC.toleranceMs + leadMs;
        index = this.waiting.findLastIndex((item) => item.timestamp <= due);
        const oldest = this.waiting[0];
        if (index < 0 && oldest && now - oldest.arrivedAt > AV_SYNC.maxHoldMs) index = 0;
      }
    }
    if (index < 0) return { show: null, dropped: [] };
    const passed = this.waiting.splice(0, index + 1);
    const shown = passed.pop();
    if (shown) this.shownTimestamp = shown.timestamp;
    if (shown && heard !== null && heardNow) record(this.shownOffsets, now, shown.timestamp - heard);
    return { show: shown?.picture ?? null, dropped: passed.map((item) => item.picture) };
  }

  /** Everything still waiting, for the caller to close (on a reset or when leaving). */
  clear(): T[] {
    return this.waiting.splice(0).map((item) => item.picture);
  }

  /**
   * Median offset of the pictures shown in the last `freshMs` vs. the sound heard with them (positive: picture
   * ahead), null without such samples.
   */
  shownOffset(now: number): number | null {
    return freshMedian(this.shownOffsets, now);
  }

  /** The same for the newest decoded picture before any holding: what the pacing corrects. */
  naturalOffset(now: number): number | null {
    return freshMedian(this.naturalOffsets, now);
  }

  /**
   * Forgets what was measured: all of it when pictures start being shown another way (driving or not), only the
   * offsets before pacing when the sound's delay moved (they steer that delay; what was shown was still seen).
   */
  forgetOffsets(which: 'all' | 'natural' = 'all'): void {
    if (which === 'all') this.shownOffsets.length = 0;
    this.naturalOffsets.length = 0;
  }
}

function record(samples: TOffset[], at: number, value: number): void {
  samples.push({ at, value });
  if (samples.length > AV_SYNC.samples) samples.shift();
}

function freshMedian(samples: readonly TOffset[], now: number): number | null {
  return median(samples.filter((sample) => now - sample.at <= AV_SYNC.freshMs).map((sample) => sample.value));
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
