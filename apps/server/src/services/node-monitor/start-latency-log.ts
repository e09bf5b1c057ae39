// How long rooms took from 'starting' to 'running' over a sliding window (the last hour on /serverstate).
// Kept in memory: it describes this process, and a restarted server has started no rooms yet.
import type { TStartLatency } from '@rooms/api';

interface TStartRecord {
  at: number;
  /** Milliseconds to running, or null for a start that failed. */
  ms: number | null;
}

export class StartLatencyLog {
  private records: TStartRecord[] = [];

  constructor(private readonly windowMs = 60 * 60 * 1000) {}

  started(ms: number, at: number): void {
    this.record({ at, ms });
  }

  failed(at: number): void {
    this.record({ at, ms: null });
  }

  /** How many starts it holds: those of the window, whether or not anyone asked for a summary. */
  get size(): number {
    return this.records.length;
  }

  summary(now: number): TStartLatency {
    this.forgetBefore(now);
    const times = this.records
      .flatMap((record) => (record.ms === null ? [] : [record.ms]))
      .sort((a, b) => a - b);
    return {
      windowMinutes: Math.round(this.windowMs / 60_000),
      started: times.length,
      failed: this.records.length - times.length,
      medianMs: percentile(times, 0.5),
      p95Ms: percentile(times, 0.95),
      maxMs: times.at(-1) ?? null,
    };
  }

  // Older starts are dropped as new ones come, not only when /serverstate asks: a server nobody looks at
  // otherwise kept every start it ever made (found by bench:soak's heap snapshots).
  private record(record: TStartRecord): void {
    this.forgetBefore(record.at);
    this.records.push(record);
  }

  private forgetBefore(now: number): void {
    const first = this.records.findIndex((record) => record.at > now - this.windowMs);
    if (first !== 0) this.records.splice(0, first === -1 ? this.records.length : first);
  }
}

/** Nearest-rank percentile of sorted values; null for none. */
export function percentile(sorted: readonly number[], share: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil(share * sorted.length));
  return sorted[rank - 1] ?? null;
}
