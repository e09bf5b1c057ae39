// The sound's jitter buffer, run inside the AudioWorklet (sound.worklet.ts) and kept free of Web Audio so it is
// tested as plain code. Decoded packets queue up with their server timestamps; the audio thread pulls 128-frame
// quanta. It plays only once `target` ms are queued, so packets arriving unevenly still play back evenly; when
// more than `max` ms pile up it drops the oldest sound (latency never builds up); when it runs dry it plays
// silence and waits for `target` ms again. While playing it keeps itself as small as the arrivals allow: every
// `window` of sound it looks at the lowest level it reached, and drops what stayed queued above `floor` the whole
// time (sound that only added delay), or pauses to grow back when the level fell below it (packets came later
// than before, or the sound is to be delayed). Every queued millisecond is a millisecond a watcher's picture
// waits for its sound (av-sync.ts).

export interface TJitterOptions {
  sampleRate: number;
  /** Sound queued before playing starts (and again after running dry). */
  targetMs: number;
  /** Above this much queued sound, the oldest is dropped down to the target. */
  maxMs: number;
  /** The least sound kept queued while playing, against arrivals later than usual. */
  floorMs?: number;
  /** How much played sound the level is judged over before it is trimmed or grown. */
  windowMs?: number;
}

export interface TJitterStats {
  bufferedMs: number;
  /** Times the buffer ran dry while playing. */
  underruns: number;
  /** Sample frames dropped because too much was queued. */
  droppedFrames: number;
  playing: boolean;
}

interface TChunk {
  /** Server milliseconds of the chunk's first sample frame. */
  timestamp: number;
  channels: Float32Array[];
  /** Sample frames of the chunk already played or dropped. */
  offset: number;
}

export const JITTER_DEFAULTS = { targetMs: 60, maxMs: 200, floorMs: 10, windowMs: 3000 } as const;
/** Level changes smaller than this are not worth an audible skip or pause. */
const SETTLE_SLACK_MS = 8;

export class JitterBuffer {
  private readonly chunks: TChunk[] = [];
  private frames = 0;
  private playing = false;
  private underruns = 0;
  private droppedFrames = 0;
  private targetFrames: number;
  private maxFrames: number;
  private floorFrames: number;
  private readonly windowFrames: number;
  /** Sound played in the current window, and the lowest level seen in it. */
  private windowPlayed = 0;
  private windowLow = Number.POSITIVE_INFINITY;
  /** Silence still to play before the queue plays on (growing the level back). */
  private pauseFrames = 0;
  /** Sound delayed on purpose (setDelay), and kept queued against a busier page (setHeadroom). */
  private delayMs = 0;
  private headroomMs = 0;

  constructor(private readonly options: TJitterOptions) {
    this.targetFrames = this.toFrames(options.targetMs);
    this.maxFrames = this.toFrames(options.maxMs);
    this.floorFrames = this.toFrames(options.floorMs ?? JITTER_DEFAULTS.floorMs);
    this.windowFrames = this.toFrames(options.windowMs ?? JITTER_DEFAULTS.windowMs);
  }

  /** A longer target delays the sound (to wait for a late picture); max and floor move with it. */
  setTarget(targetMs: number): void {
    this.setDelay(targetMs - this.options.targetMs);
  }

  /** Delays the sound by `ms` beyond what its arrivals need (to wait for a late picture). */
  setDelay(ms: number): void {
    this.delayMs = ms;
    this.resize();
  }

  /**
   * Keeps `ms` more sound queued than the arrivals have needed, for a spell when they are about to come less evenly
   * (a voice playing beside the sound keeps the page busier). More headroom is taken at once, as a pause of that
   * length (the moment someone starts to talk, under their voice); less is given back by the window's trim.
   */
  setHeadroom(ms: number): void {
    const growth = ms - this.headroomMs;
    this.headroomMs = ms;
    this.resize();
    if (growth > 0 && this.playing) this.pauseFrames += this.toFrames(growth);
  }

  private resize(): void {
    const extra = this.delayMs + this.headroomMs;
    this.targetFrames = this.toFrames(this.options.targetMs + extra);
    this.maxFrames = this.toFrames(this.options.maxMs + extra);
    this.floorFrames = this.toFrames((this.options.floorMs ?? JITTER_DEFAULTS.floorMs) + extra);
  }

  push(timestamp: number, channels: Float32Array[]): void {
    const length = channels[0]?.length ?? 0;
    if (length === 0) return;
    this.chunks.push({ timestamp, channels, offset: 0 });
    this.frames += length;
    if (this.frames > this.maxFrames) this.skip(this.frames - this.targetFrames);
  }

  /**
   * Fills `output` (one array per output channel, all the same length) with the next sound. Returns the server
   * timestamp of the first sample frame written, or null when the output is silence.
   */
  pull(output: Float32Array[]): number | null {
    const wanted = output[0]?.length ?? 0;
    for (const channel of output) channel.fill(0);
    if (!this.playing) {
      if (this.frames < this.targetFrames || this.frames === 0) return null;
      this.playing = true;
      this.windowPlayed = 0;
      this.windowLow = Number.POSITIVE_INFINITY;
    }
    if (this.pauseFrames > 0) {
      this.pauseFrames = Math.max(0, this.pauseFrames - wanted);
      return null;
    }
    this.windowLow = Math.min(this.windowLow, this.frames);
    this.windowPlayed += wanted;
    if (this.windowPlayed >= this.windowFrames) this.settle();
    const first = this.chunks[0];
    const timestamp = first ? first.timestamp + (first.offset / this.options.sampleRate) * 1000 : null;
    let written = 0;
    while (written < wanted) {
      const chunk = this.chunks[0];
      if (!chunk) {
        // Ran dry mid-quantum: the rest stays silent and the buffer refills to the target before playing on.
        this.playing = false;
        this.underruns += 1;
        break;
      }
      const available = (chunk.channels[0]?.length ?? 0) - chunk.offset;
      const count = Math.min(available, wanted - written);
      copyChannels(chunk, count, output, written);
      chunk.offset += count;
      written += count;
      this.frames -= count;
      if (chunk.offset >= (chunk.channels[0]?.length ?? 0)) this.chunks.shift();
    }
    return timestamp;
  }

  stats(): TJitterStats {
    return {
      bufferedMs: (this.frames / this.options.sampleRate) * 1000,
      underruns: this.underruns,
      droppedFrames: this.droppedFrames,
      playing: this.playing,
    };
  }

  clear(): void {
    this.chunks.length = 0;
    this.frames = 0;
    this.playing = false;
    this.pauseFrames = 0;
  }

  /** At the end of a window: bring the lowest level of the window to the floor, if it is off by enough. */
  private settle(): void {
    const off = this.windowLow - this.floorFrames;
    this.windowPlayed = 0;
    this.windowLow = Number.POSITIVE_INFINITY;
    if (Math.abs(off) < this.toFrames(SETTLE_SLACK_MS)) return;
    if (off > 0) this.skip(off);
    else this.pauseFrames = -off;
  }

  private skip(count: number): void {
    let left = count;
    while (left > 0) {
      const chunk = this.chunks[0];
      if (!chunk) break;
      const available = (chunk.channels[0]?.length ?? 0) - chunk.offset;
      const dropped = Math.min(available, left);
      chunk.offset += dropped;
      left -= dropped;
      this.frames -= dropped;
      this.droppedFrames += dropped;
      if (chunk.offset >= (chunk.channels[0]?.length ?? 0)) this.chunks.shift();
    }
  }

  private toFrames(ms: number): number {
    return Math.round((ms / 1000) * this.options.sampleRate);
  }
}

/** Mono goes to every output channel; stereo to a mono output is averaged; otherwise channel by channel. */
function copyChannels(chunk: TChunk, count: number, output: Float32Array[], at: number): void {
  const source = chunk.channels;
  const from = chunk.offset;
  if (output.length === 1 && source.length > 1) {
    const target = output[0];
    if (!target) return;
    for (let i = 0; i < count; i += 1) {
      let sum = 0;
      for (const channel of source) sum += channel[from + i] ?? 0;
      target[at + i] = sum / source.length;
    }
    return;
  }
  output.forEach((target, index) => {
    const channel = source[Math.min(index, source.length - 1)];
    if (channel) target.set(channel.subarray(from, from + count), at);
  });
}
