// The quality indicator's numbers: pictures painted and bytes received in the last second, and the input → picture
// latency as this participant lives it. For the participant in control that is measured end to end: from their
// own click or key press to the first picture painted here that shows its effect (the player spots it,
// input-echo.ts). Everyone else (and a driver who has not pressed anything for a while) gets an estimate from
// pings: half a round trip for the input's way in, the time the room's browser takes to show an input in a
// picture (learned from this participant's own measured inputs, else a typical figure), and the age of each
// picture when it is painted here (its server timestamp against our clock, the clocks related by system/ping).

export interface TQuality {
  /** Pictures received in the last second. */
  fps: number;
  /** Pictures painted on this screen in the last second. */
  paintedFps: number;
  /** Bits per second received for the picture. */
  bitrate: number;
  /** Median age of pictures on arrival (server timestamp vs. our clock), ms; null until the clocks are related. */
  latencyMs: number | null;
  /** Input → picture painted here, ms; null until known. */
  inputLatencyMs: number | null;
  /** 'measured': from this participant's own recent inputs; 'estimated': from pings and picture ages. */
  inputLatencyKind: 'measured' | 'estimated' | null;
  /** Median age of pictures when painted here (server timestamp vs. our clock), ms. */
  paintAgeMs: number | null;
  /** Round trip of the last ping, ms. */
  rttMs: number | null;
  /** Frames the server skipped for this viewer over its last report. */
  skipped: number;
}

const WINDOW_MS = 1000;
const LATENCY_SAMPLES = 30;
/** Measured inputs count as this participant's figure for this long after the last one. */
const MEASURED_FOR_MS = 60_000;
const INPUT_SAMPLES = 10;
/**
 * How long the room's browser takes from receiving an input to a picture of its effect leaving the encoder, until
 * this participant's own inputs tell: bench/e2e-latency.ts measures 30–45 ms at 720p30 and 720p60 (the page's
 * next frame, the display grab at the room's frame rate, the encoder).
 */
const TYPICAL_ROOM_MS = 35;

export class QualityMeter {
  private arrivals: { at: number; bytes: number }[] = [];
  private paints: number[] = [];
  private latencies: number[] = [];
  private paintAges: number[] = [];
  private inputs: { at: number; latencyMs: number }[] = [];
  /** The room's share of a measured input's latency, smoothed; null until an input was measured. */
  private roomMs: number | null = null;
  /** server clock − client clock, from the ping with the smallest round trip (the tightest bound). */
  private offset: number | null = null;
  private bestRtt = Number.POSITIVE_INFINITY;
  private rtt: number | null = null;
  private skipped = 0;

  /** A ping sent at client time `sentAt` came back at `now` carrying the server's clock `serverTime`. */
  pong(sentAt: number, serverTime: number, now: number): void {
    const rtt = Math.max(0, now - sentAt);
    this.rtt = rtt;
    // Old estimates drift with the clocks; a slightly worse fresh one beats a stale best.
    this.bestRtt = Math.min(this.bestRtt * 1.05, this.bestRtt + 5);
    if (rtt <= this.bestRtt) {
      this.bestRtt = rtt;
      this.offset = serverTime - (sentAt + rtt / 2);
    }
  }

  frame(serverTimestamp: number, bytes: number, now: number): void {
    this.arrivals.push({ at: now, bytes });
    this.trim(now);
    const age = this.age(serverTimestamp, now);
    if (age !== null) record(this.latencies, age, LATENCY_SAMPLES);
  }

  /** A picture with this server timestamp was painted on this screen at `now`. */
  painted(serverTimestamp: number, now: number): void {
    this.paints.push(now);
    this.trim(now);
    const age = this.age(serverTimestamp, now);
    if (age !== null) record(this.paintAges, age, LATENCY_SAMPLES);
  }

  /**
   * This participant's input at `now − latencyMs` showed in the picture stamped `serverTimestamp`, painted at
   * `now`. What the picture's age and the way in do not explain is the room's share, kept for the estimate.
   */
  inputShown(latencyMs: number, serverTimestamp: number, now: number): void {
    this.inputs.push({ at: now, latencyMs });
    if (this.inputs.length > INPUT_SAMPLES) this.inputs.shift();
    const age = this.age(serverTimestamp, now);
    if (age === null || this.rtt === null) return;
    const room = Math.max(0, latencyMs - age - this.rtt / 2);
    this.roomMs = this.roomMs === null ? room : this.roomMs * 0.7 + room * 0.3;
  }

  stats(skipped: number): void {
    this.skipped = skipped;
  }

  read(now: number): TQuality {
    this.trim(now);
    const bytes = this.arrivals.reduce((sum, arrival) => sum + arrival.bytes, 0);
    const paintAge = this.paintAges.length ? median(this.paintAges) : null;
    const recent = this.inputs.at(-1);
    let inputLatencyMs: number | null = null;
    let inputLatencyKind: TQuality['inputLatencyKind'] = null;
    if (recent && now - recent.at <= MEASURED_FOR_MS) {
      inputLatencyMs = median(this.inputs.map((input) => input.latencyMs));
      inputLatencyKind = 'measured';
    } else if (paintAge !== null && this.rtt !== null) {
      inputLatencyMs = this.rtt / 2 + (this.roomMs ?? TYPICAL_ROOM_MS) + paintAge;
      inputLatencyKind = 'estimated';
    }
    return {
      fps: this.arrivals.length * (1000 / WINDOW_MS),
      paintedFps: this.paints.length * (1000 / WINDOW_MS),
      bitrate: bytes * 8 * (1000 / WINDOW_MS),
      latencyMs: this.latencies.length ? median(this.latencies) : null,
      inputLatencyMs,
      inputLatencyKind,
      paintAgeMs: paintAge,
      rttMs: this.rtt,
      skipped: this.skipped,
    };
  }

  /** How old a picture stamped `serverTimestamp` is at client time `now`, or null before the clocks are related. */
  private age(serverTimestamp: number, now: number): number | null {
    return this.offset === null ? null : Math.max(0, now + this.offset - serverTimestamp);
  }

  private trim(now: number): void {
    while (this.arrivals.length && (this.arrivals[0]?.at ?? now) <= now - WINDOW_MS) this.arrivals.shift();
    while (this.paints.length && (this.paints[0] ?? now) <= now - WINDOW_MS) this.paints.shift();
  }
}

function record(samples: number[], value: number, keep: number): void {
  samples.push(value);
  if (samples.length > keep) samples.shift();
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export function formatBitrate(bitsPerSecond: number): string {
  if (bitsPerSecond >= 1_000_000) return `${(bitsPerSecond / 1_000_000).toFixed(1)} Mbps`;
  return `${Math.round(bitsPerSecond / 1000)} kbps`;
}
