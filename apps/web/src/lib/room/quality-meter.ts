// The quality indicator's numbers, from what every viewer can see: frames and bytes that arrived in the last
// second, and the picture latency (frame timestamp on the server's clock vs. its arrival, the clocks related by
// system/ping round trips).

export interface TQuality {
  fps: number;
  /** Bits per second received for the picture. */
  bitrate: number;
  /** Median picture latency in ms over recent frames, null until the clocks are related. */
  latencyMs: number | null;
  /** Round trip of the last ping, ms. */
  rttMs: number | null;
  /** Frames the server skipped for this viewer over its last report. */
  skipped: number;
}

const WINDOW_MS = 1000;
const LATENCY_SAMPLES = 30;

export class QualityMeter {
  private arrivals: { at: number; bytes: number }[] = [];
  private latencies: number[] = [];
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
    if (this.offset !== null) {
      const latency = now + this.offset - serverTimestamp;
      this.latencies.push(Math.max(0, latency));
      if (this.latencies.length > LATENCY_SAMPLES) this.latencies.shift();
    }
  }

  stats(skipped: number): void {
    this.skipped = skipped;
  }

  read(now: number): TQuality {
    this.trim(now);
    const bytes = this.arrivals.reduce((sum, arrival) => sum + arrival.bytes, 0);
    return {
      fps: this.arrivals.length * (1000 / WINDOW_MS),
      bitrate: bytes * 8 * (1000 / WINDOW_MS),
      latencyMs: this.latencies.length ? median(this.latencies) : null,
      rttMs: this.rtt,
      skipped: this.skipped,
    };
  }

  private trim(now: number): void {
    while (this.arrivals.length && (this.arrivals[0]?.at ?? now) <= now - WINDOW_MS) this.arrivals.shift();
  }
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
