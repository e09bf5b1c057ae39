import { describe, expect, it } from 'vitest';
import { AV_SYNC, heardTimestamp, nextSoundDelay, PicturePacer } from './av-sync';

describe('heardTimestamp', () => {
  it('follows the sound from the last report to what reaches the speakers now', () => {
    // At context time 10 s the worklet rendered the sample stamped 5000 ms. The speakers play context time
    // 9.96 s at performance time 20 000 ms (40 ms of output latency).
    const report = { contextTime: 10, timestamp: 5000 };
    const output = { contextTime: 9.96, performanceTime: 20_000 };
    expect(heardTimestamp(report, output, 20_000)).toBeCloseTo(4960);
    expect(heardTimestamp(report, output, 20_100)).toBeCloseTo(5060);
  });

  it('knows nothing without sound, without a mapping, or from a stale report', () => {
    const output = { contextTime: 10, performanceTime: 0 };
    expect(heardTimestamp({ contextTime: 10, timestamp: null }, output, 0)).toBeNull();
    expect(heardTimestamp(null, output, 0)).toBeNull();
    expect(heardTimestamp({ contextTime: 10, timestamp: 1 }, null, 0)).toBeNull();
    expect(heardTimestamp({ contextTime: 10, timestamp: 1 }, output, AV_SYNC.staleReportMs + 1)).toBeNull();
  });
});

describe('PicturePacer', () => {
  it('shows the newest picture at once when there is no sound', () => {
    const pacer = new PicturePacer<string>();
    pacer.push(100, 'a', 0);
    pacer.push(133, 'b', 0);
    expect(pacer.take(null, 0)).toEqual({ show: 'b', dropped: ['a'] });
    expect(pacer.take(null, 0)).toEqual({ show: null, dropped: [] });
    expect(pacer.shownOffset()).toBeNull();
  });

  it('holds pictures that are ahead of the sound and shows each when the sound reaches it', () => {
    const pacer = new PicturePacer<string>();
    pacer.push(1000, 'a', 0);
    pacer.push(1033, 'b', 0);
    pacer.push(1066, 'c', 0);
    expect(pacer.take(900, 0).show).toBeNull();
    expect(pacer.take(1010, 10)).toEqual({ show: 'a', dropped: [] });
    // The sound jumped past b: b is skipped, c (within the tolerance) is shown.
    expect(pacer.take(1060, 50)).toEqual({ show: 'c', dropped: ['b'] });
    expect(pacer.size).toBe(0);
    // Shown 10 ms behind and 6 ms ahead of the sound: the median of the two.
    expect(pacer.shownOffset()).toBe(-2);
    // The newest picture was 166, 56 and 6 ms ahead before holding.
    expect(pacer.naturalOffset()).toBe(56);
  });

  it('holds nothing for the participant in control, but still measures the offset', () => {
    const pacer = new PicturePacer<string>();
    pacer.push(1100, 'a', 0);
    pacer.push(1133, 'b', 0);
    // The sound is at 1000: a watcher's pacer would hold both; the driver gets the newest at once.
    expect(pacer.take(1000, 1, false)).toEqual({ show: 'b', dropped: ['a'] });
    expect(pacer.naturalOffset()).toBe(133);
    expect(pacer.shownOffset()).toBe(133);
  });

  it('lets a picture go after the longest hold, and when too many wait', () => {
    const pacer = new PicturePacer<number>();
    pacer.push(5000, 1, 0);
    expect(pacer.take(0, AV_SYNC.maxHoldMs).show).toBeNull();
    expect(pacer.take(0, AV_SYNC.maxHoldMs + 1).show).toBe(1);

    const crowded = new PicturePacer<number>();
    const pushedOut: number[] = [];
    for (let i = 0; i < AV_SYNC.maxQueue + 2; i += 1) pushedOut.push(...crowded.push(5000 + i, i, 0));
    expect(pushedOut).toEqual([0, 1]);
    expect(crowded.size).toBe(AV_SYNC.maxQueue);
    expect(crowded.clear()).toHaveLength(AV_SYNC.maxQueue);
    expect(crowded.size).toBe(0);
  });
});

describe('nextSoundDelay', () => {
  it('delays the sound by how much the picture lags, within bounds', () => {
    expect(nextSoundDelay(0, -40)).toBe(40);
    expect(nextSoundDelay(40, -30)).toBe(70);
    expect(nextSoundDelay(0, -1000)).toBe(AV_SYNC.maxSoundDelayMs);
  });

  it('gives the delay back once the picture is ahead, and ignores small wobbles', () => {
    expect(nextSoundDelay(70, 50)).toBe(20);
    expect(nextSoundDelay(20, 60)).toBe(0);
    expect(nextSoundDelay(40, -5)).toBe(40);
    expect(nextSoundDelay(40, 10)).toBe(40);
  });
});
