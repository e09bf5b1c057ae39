// The sound's jitter buffer, run inside the AudioWorklet (sound.worklet.ts) and kept free of Web Audio so it is
// tested as plain code. Decoded packets queue up with their server timestamps; the audio thread pulls 128-frame
// quanta. Sound plays against a clock rather than a fill level: the sample stamped T is due at T + the playout
// delay, on the audio thread's clock (the two clocks' offset is folded into the delay). The delay is learned from
// the packets' own arrivals: it is the latest any packet arrived (its lag: arrival − timestamp) over the last
// `window`, plus a small `margin`. A packet later than that raises it at once by just what that packet needed
// (the sound pauses once for the difference), and once the late arrivals have left the window it comes back
// down (a skip). So the sound waits only as long as its arrivals actually vary, not for a fixed fill level, and
// the picture, which waits for the sound (av-sync.ts), waits no longer than that either.

export interface TJitterOptions {
  sampleRate: number;
  /** The longest the sound waits beyond its earliest arrivals; sound later than that is dropped instead. */
  maxMs: number;
  /** Kept beyond the latest arrival seen, against arrivals a little later still. */
  marginMs?: number;
  /**
   * And this share of the window's spread (latest − earliest lag) on top: arrivals that vary more beat their
   * own record more often, and each record beaten is a gap heard.
   */
  spreadShare?: number;
  /** How long a late arrival keeps the delay up. */
  windowMs?: number;
  /** Drift of the playing sound from its due time smaller than this is not worth an audible skip or pause. */
  slackMs?: number;
}

export interface TJitterStats {
  bufferedMs: number;
  /** How much later than its earliest arrivals the sound plays (what the smoothing costs), ms; null before any. */
  delayMs: number | null;
  /** Times the buffer ran dry while playing. */
  underruns: number;
  /** Sample frames dropped because they came or stayed past their time. */
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

/** The latest and earliest lag of the packets that arrived in a slice of the window. */
interface TLagSlice {
  start: number;
  latest: number;
  earliest: number;
}

export const JITTER_DEFAULTS = {
  maxMs: 200,
  marginMs: 6,
  spreadShare: 0.1,
  windowMs: 8000,
  slackMs: 10,
} as const;
const SLICES = 4;

export class JitterBuffer {
  private readonly chunks: TChunk[] = [];
  private frames = 0;
  private playing = false;
  private underruns = 0;
  private droppedFrames = 0;
  /** Extra delay asked for (to wait for a late picture), ms. */
  private extraMs = 0;
  /** Timestamp + playoutMs = when a sample is due on the audio clock; null before the first packet. */
  private playoutMs: number | null = null;
  private readonly slices: TLagSlice[] = [];
  /** Since when packets have arrived far outside the window's lags (a new timeline), on the audio clock. */
  private strayFrom: number | null = null;
  private readonly marginMs: number;
  private readonly spreadShare: number;
  private readonly windowMs: number;
  private readonly slackMs: number;

  constructor(private readonly options: TJitterOptions) {
    this.marginMs = options.marginMs ?? JITTER_DEFAULTS.marginMs;
    this.spreadShare = options.spreadShare ?? JITTER_DEFAULTS.spreadShare;
    this.windowMs = options.windowMs ?? JITTER_DEFAULTS.windowMs;
    this.slackMs = options.slackMs ?? JITTER_DEFAULTS.slackMs;
  }

  /** Delays the sound by `ms` beyond what its arrivals need (to wait for a late picture). */
  setDelay(ms: number): void {
    this.extraMs = ms;
  }

  /** A decoded packet stamped `timestamp` (server ms) arrived at `now` (ms on the audio clock). */
  push(timestamp: number, channels: Float32Array[], now: number): void {
    const length = channels[0]?.length ?? 0;
    if (length === 0) return;
    this.note(now - timestamp, now);
    this.chunks.push({ timestamp, channels, offset: 0 });
    this.frames += length;
    // Nothing pulls while the context is suspended: keep only what could still play.
    const most = this.toFrames(this.options.maxMs + this.extraMs);
    if (this.frames > most) this.skip(this.frames - most);
  }

  /**
   * Fills `output` (one array per output channel, all the same length) with the sound due at `now` (ms on the
   * audio clock). Returns the server timestamp of the first sample frame written, or null when it is silence.
   */
  pull(output: Float32Array[], now: number): number | null {
    const wanted = output[0]?.length ?? 0;
    for (const channel of output) channel.fill(0);
    const head = this.chunks[0];
    if (!head || this.playoutMs === null) {
      if (this.playing) this.underruns += 1;
      this.playing = false;
      return null;
    }
    const late = now - (this.position(head) + this.playoutMs + this.extraMs);
    const quantumMs = (wanted / this.options.sampleRate) * 1000;
    // Starting, the first sample lands within half a quantum of its time; playing, it is left alone within the
    // slack (the server's stamps creep against the samples by up to 2 ms a second).
    const allowed = this.playing ? this.slackMs : quantumMs / 2;
    if (late < -allowed) return null;
    if (late > allowed) this.skip(this.toFrames(late));
    const first = this.chunks[0];
    // Everything queued was past its time (the context was suspended): wait for the next packet.
    if (!first) return null;
    this.playing = true;
    const timestamp = this.position(first);
    let written = 0;
    while (written < wanted) {
      const chunk = this.chunks[0];
      if (!chunk) {
        // Ran dry mid-quantum: the rest stays silent and the next packet plays when it is due.
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
    const { earliest } = this.range();
    return {
      bufferedMs: (this.frames / this.options.sampleRate) * 1000,
      delayMs: this.playoutMs === null || !Number.isFinite(earliest) ? null : this.playoutMs - earliest,
      underruns: this.underruns,
      droppedFrames: this.droppedFrames,
      playing: this.playing,
    };
  }

  /** Forgets the sound and what its arrivals taught (the audio clock stood still, or the stream starts over). */
  clear(): void {
    this.chunks.length = 0;
    this.frames = 0;
    this.playing = false;
    this.slices.length = 0;
    this.playoutMs = null;
    this.strayFrom = null;
  }

  /** A packet arrived `lag` ms after its timestamp: raise the delay for it, or lower it as a slice ends. */
  private note(lag: number, now: number): void {
    const { latest, earliest } = this.range();
    const stray = lag > latest + this.options.maxMs || lag < earliest - this.options.maxMs;
    if (this.slices.length > 0 && stray) {
      // One such packet is a stall (it is dropped or waits); a slice of them is a new timeline (the server's
      // encoder started over): learn it afresh, without the sound queued on the old one.
      this.strayFrom ??= now;
      if (now - this.strayFrom < this.windowMs / SLICES) return;
      this.clear();
    }
    this.strayFrom = null;
    let slice = this.slices.at(-1);
    if (!slice || now - slice.start >= this.windowMs / SLICES) {
      slice = { start: now, latest: lag, earliest: lag };
      this.slices.push(slice);
      if (this.slices.length > SLICES) this.slices.shift();
      // A slice ended: what the window's latest arrival needs now, if that is less than the delay by enough.
      const needed = this.needed();
      if (this.playoutMs !== null && needed < this.playoutMs - this.slackMs) this.playoutMs = needed;
    } else {
      slice.latest = Math.max(slice.latest, lag);
      slice.earliest = Math.min(slice.earliest, lag);
    }
    const needed = this.needed();
    if (this.playoutMs === null || needed > this.playoutMs) this.playoutMs = needed;
  }

  /** The window's latest arrival plus the margins, never more than `maxMs` past its earliest. */
  private needed(): number {
    const { latest, earliest } = this.range();
    const margin = this.marginMs + (latest - earliest) * this.spreadShare;
    return Math.min(latest + margin, earliest + this.options.maxMs);
  }

  /** The latest and earliest lag in the window (±infinity before any). */
  private range(): { latest: number; earliest: number } {
    let latest = Number.NEGATIVE_INFINITY;
    let earliest = Number.POSITIVE_INFINITY;
    for (const slice of this.slices) {
      latest = Math.max(latest, slice.latest);
      earliest = Math.min(earliest, slice.earliest);
    }
    return { latest, earliest };
  }

  /** The server timestamp of the next sample frame of `chunk`. */
  private position(chunk: TChunk): number {
    return chunk.timestamp + (chunk.offset / this.options.sampleRate) * 1000;
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
