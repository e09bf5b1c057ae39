// The quality indicator's numbers: whether pictures flow, pictures painted and bytes received in the last second,
// and the input → picture latency as this participant lives it. For the participant in control that is measured
// end to end: from their own click or key press to the first picture painted here that shows its effect (the
// player spots it, input-echo.ts). Everyone else (and a driver who has not pressed anything for a while) gets an
// estimate from pings: half a round trip for the input's way in, the time the room's browser takes to show an
// input in a picture (learned from this participant's own measured inputs, else a typical figure), and the age of
// each picture when it is painted here (its server timestamp against our clock, the clocks related by
// system/ping).
// A figure is only as good as what backs it now: ages count for FRESH_MS, and none is given while no picture
// flows, so nothing sits at an old value. A still page sends no pictures; while the room answers pings that is
// 'idle', not a fault: the socket delivers in order, so a pong that arrives says nothing was sent before it.

/** room-connection.ts pings this often; a pong overdue by LINK_GRACE_MS beyond it means the link is not answering. */
export const PING_EVERY_MS = 2000;
const LINK_GRACE_MS = 1500;

/**
 * 'waiting': no picture yet; 'flowing': pictures arrived within IDLE_AFTER_MS; 'idle': none since, while the room
 * answers pings (a still page); 'stuck': pictures arrive but none is painted (a decoder waiting for a keyframe, or
 * broken); 'stalled': the room stopped answering, or it skips the pictures meant for us.
 */
export type TPictureFlow = 'waiting' | 'flowing' | 'idle' | 'stuck' | 'stalled';

export interface TQuality {
  flow: TPictureFlow;
  /** 'bad' only when something is wrong (stuck, stalled); 'poor' for a long delay, skipped frames or no picture yet. */
  level: 'good' | 'poor' | 'bad';
  /** Pictures received in the last second. */
  fps: number;
  /** Pictures painted on this screen in the last second. */
  paintedFps: number;
  /** Bits per second received for the picture. */
  bitrate: number;
  /** Median age of recent pictures on arrival (server timestamp vs. our clock), ms; null without fresh ones. */
  latencyMs: number | null;
  /** Input → picture painted here, ms; null while nothing backs a figure. */
  inputLatencyMs: number | null;
  /** 'measured': from this participant's own recent inputs; 'estimated': from pings and picture ages. */
  inputLatencyKind: 'measured' | 'estimated' | null;
  /** Median age of recent pictures when painted here (server timestamp vs. our clock), ms. */
  paintAgeMs: number | null;
  /** Round trip of the last ping, ms; null while the room does not answer. */
  rttMs: number | null;
  /** Frames the server skipped for this viewer over its last report. */
  skipped: number;
}

const WINDOW_MS = 1000;
/** Without a picture for this long, pictures are not flowing: the page is still, or something is wrong. */
const IDLE_AFTER_MS = 1000;
/** Pictures arriving this long without one painted: the picture is stuck. */
const STUCK_AFTER_MS = 1500;
/** A picture's age speaks for the link for this long. */
const FRESH_MS = 2000;
/** The server's stream/stats come every 2 s; a report speaks for about two of its intervals. */
const STATS_FRESH_MS = 5000;
const LATENCY_SAMPLES = 30;
/** Measured inputs count as this participant's figure for this long after the last one. */
const MEASURED_FOR_MS = 60_000;
const INPUT_SAMPLES = 10;
/** A delay above this is felt: the indicator turns amber. */
const POOR_LATENCY_MS = 250;
/**
 * How long the room's browser takes from receiving an input to a picture of its effect leaving the encoder, until
 * this participant's own inputs tell: bench/e2e-latency.ts measures 30–45 ms at 720p30 and 720p60 (the page's
 * next frame, the display grab at the room's frame rate, the encoder).
 */
const TYPICAL_ROOM_MS = 35;

interface TSample {
  at: number;
  value: number;
}

export class QualityMeter {
  private arrivals: { at: number; bytes: number }[] = [];
  private paints: number[] = [];
  private latencies: TSample[] = [];
  private paintAges: TSample[] = [];
  private inputs: { at: number; latencyMs: number }[] = [];
  /** The room's share of a measured input's latency, smoothed; null until an input was measured. */
  private roomMs: number | null = null;
  /** server clock − client clock, from the ping with the smallest round trip (the tightest bound). */
  private offset: number | null = null;
  private bestRtt = Number.POSITIVE_INFINITY;
  private rtt: number | null = null;
  private pongAt: number | null = null;
  private lastArrivalAt: number | null = null;
  /** The first picture that arrived since the last paint, while none has been painted since. */
  private unpaintedSince: number | null = null;
  private skipped = 0;
  private statsAt = Number.NEGATIVE_INFINITY;

  /** A ping sent at client time `sentAt` came back at `now` carrying the server's clock `serverTime`. */
  pong(sentAt: number, serverTime: number, now: number): void {
    const rtt = Math.max(0, now - sentAt);
    this.rtt = rtt;
    this.pongAt = now;
    // Old estimates drift with the clocks; a slightly worse fresh one beats a stale best.
    this.bestRtt = Math.min(this.bestRtt * 1.05, this.bestRtt + 5);
    if (rtt <= this.bestRtt) {
      this.bestRtt = rtt;
      this.offset = serverTime - (sentAt + rtt / 2);
    }
  }

  frame(serverTimestamp: number, bytes: number, now: number): void {
    this.arrivals.push({ at: now, bytes });
    this.lastArrivalAt = now;
    this.unpaintedSince ??= now;
    this.trim(now);
    const age = this.age(serverTimestamp, now);
    if (age !== null) record(this.latencies, now, age);
  }

  /** A picture with this server timestamp was painted on this screen at `now`. */
  painted(serverTimestamp: number, now: number): void {
    this.paints.push(now);
    this.unpaintedSince = null;
    this.trim(now);
    const age = this.age(serverTimestamp, now);
    if (age !== null) record(this.paintAges, now, age);
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

  /** The server's last report: frames it skipped for this viewer because the link could not take them. */
  stats(skipped: number, now = performance.now()): void {
    this.skipped = skipped;
    this.statsAt = now;
  }

  read(now: number): TQuality {
    this.trim(now);
    const flow = this.flow(now);
    const answering = flow !== 'stalled';
    const bytes = this.arrivals.reduce((sum, arrival) => sum + arrival.bytes, 0);
    const flowing = flow === 'flowing' || flow === 'stuck';
    const paintAge = flowing ? freshMedian(this.paintAges, now) : null;
    const latency = flowing ? freshMedian(this.latencies, now) : null;
    const recent = this.inputs.at(-1);
    let inputLatencyMs: number | null = null;
    let inputLatencyKind: TQuality['inputLatencyKind'] = null;
    if (answering && recent && now - recent.at <= MEASURED_FOR_MS) {
      inputLatencyMs = median(this.inputs.map((input) => input.latencyMs));
      inputLatencyKind = 'measured';
    } else if (paintAge !== null && this.rtt !== null) {
      inputLatencyMs = this.rtt / 2 + (this.roomMs ?? TYPICAL_ROOM_MS) + paintAge;
      inputLatencyKind = 'estimated';
    }
    const skipped = now - this.statsAt <= STATS_FRESH_MS ? this.skipped : 0;
    const level =
      flow === 'stalled' || flow === 'stuck'
        ? 'bad'
        : flow === 'waiting' || skipped > 0 || (inputLatencyMs ?? 0) > POOR_LATENCY_MS
          ? 'poor'
          : 'good';
    return {
      flow,
      level,
      fps: this.arrivals.length * (1000 / WINDOW_MS),
      paintedFps: this.paints.length * (1000 / WINDOW_MS),
      bitrate: bytes * 8 * (1000 / WINDOW_MS),
      latencyMs: latency,
      inputLatencyMs,
      inputLatencyKind,
      paintAgeMs: paintAge,
      rttMs: answering ? this.rtt : null,
      skipped,
    };
  }

  private flow(now: number): TPictureFlow {
    // A pong is due every PING_EVERY_MS; one long overdue means the room (or the way to it) does not answer.
    const silent = this.pongAt !== null && now - this.pongAt > PING_EVERY_MS + LINK_GRACE_MS;
    const arriving = this.lastArrivalAt !== null && now - this.lastArrivalAt < IDLE_AFTER_MS;
    if (silent) return 'stalled';
    if (arriving) {
      return this.unpaintedSince !== null && now - this.unpaintedSince > STUCK_AFTER_MS ? 'stuck' : 'flowing';
    }
    // Nothing arrives while the room answers: a still page, unless the room skips what it meant to send us.
    if (now - this.statsAt <= STATS_FRESH_MS && this.skipped > 0) return 'stalled';
    return this.lastArrivalAt === null ? 'waiting' : 'idle';
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

function record(samples: TSample[], at: number, value: number): void {
  samples.push({ at, value });
  if (samples.length > LATENCY_SAMPLES) samples.shift();
}

/** The median of the samples taken within FRESH_MS, or null when there are none. */
function freshMedian(samples: TSample[], now: number): number | null {
  const fresh = samples.filter((sample) => now - sample.at <= FRESH_MS).map((sample) => sample.value);
  return fresh.length ? median(fresh) : null;
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
