import { describe, expect, it } from 'vitest';
import { percentile, StartLatencyLog } from './start-latency-log';

describe('StartLatencyLog', () => {
  it('summarises the starts of the window and forgets older ones', () => {
    const log = new StartLatencyLog(60_000);
    log.started(5000, 0);
    log.started(800, 30_000);
    log.started(1200, 40_000);
    log.started(1000, 50_000);
    log.failed(55_000);

    expect(log.summary(59_000)).toEqual({
      windowMinutes: 1,
      started: 4,
      failed: 1,
      medianMs: 1000,
      p95Ms: 5000,
      maxMs: 5000,
    });
    // 70 s later the first start has left the window.
    expect(log.summary(70_000)).toMatchObject({ started: 3, failed: 1, medianMs: 1000, maxMs: 1200 });
    expect(log.summary(200_000)).toEqual({
      windowMinutes: 1,
      started: 0,
      failed: 0,
      medianMs: null,
      p95Ms: null,
      maxMs: null,
    });
  });

  it('keeps only the window of a server nobody asks for a summary', () => {
    const log = new StartLatencyLog(60_000);
    for (let at = 0; at < 600_000; at += 1000) log.started(900, at);
    log.failed(600_000);
    // A start a second for ten minutes: the last minute's, not all six hundred.
    expect(log.size).toBe(60);
  });

  it('takes nearest-rank percentiles', () => {
    const values = Array.from({ length: 20 }, (_, index) => index + 1);
    expect(percentile(values, 0.5)).toBe(10);
    expect(percentile(values, 0.95)).toBe(19);
    expect(percentile([7], 0.95)).toBe(7);
    expect(percentile([], 0.5)).toBeNull();
  });
});
