// The busy share of all cores, sampled on a timer: a reading needs two points in time, and a page refreshing
// every few seconds should not have to wait for one.
import { cpus } from 'node:os';

interface TCpuTimes {
  busy: number;
  total: number;
}

function cpuTimes(): TCpuTimes {
  let busy = 0;
  let total = 0;
  for (const { times } of cpus()) {
    const all = times.user + times.nice + times.sys + times.irq + times.idle;
    total += all;
    busy += all - times.idle;
  }
  return { busy, total };
}

/** Busy percent between two readings, 0 when no time passed. */
export function busyPercent(before: TCpuTimes, after: TCpuTimes): number {
  const total = after.total - before.total;
  if (total <= 0) return 0;
  return Math.min(100, Math.max(0, ((after.busy - before.busy) / total) * 100));
}

export class CpuSampler {
  private last = cpuTimes();
  private percent = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(intervalMs = 2000) {
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  get cores(): number {
    return cpus().length;
  }

  /** The busy percent of the last interval. */
  get busy(): number {
    return this.percent;
  }

  sample(): void {
    const now = cpuTimes();
    this.percent = busyPercent(this.last, now);
    this.last = now;
  }

  close(): void {
    clearInterval(this.timer);
  }
}
