import { describe, expect, it } from 'vitest';
import { AV_SYNC, heardTimestamp, nextSoundDelay, PacketStamps, PicturePacer } from './av-sync';

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
    expect(pacer.shownOffset(0)).toBeNull();
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
    expect(pacer.shownOffset(50)).toBe(-2);
    // The newest picture was 166, 56 and 6 ms ahead before holding.
    expect(pacer.naturalOffset(50)).toBe(56);
  });

  it('holds nothing for the participant in control, but still measures the offset', () => {
    const pacer = new PicturePacer<string>();
    pacer.push(1100, 'a', 0);
    pacer.push(1133, 'b', 0);
    // The sound is at 1000: a watcher's pacer would hold both; the driver gets the newest at once.
    expect(pacer.take(1000, 1, false)).toEqual({ show: 'b', dropped: ['a'] });
    expect(pacer.naturalOffset(1)).toBe(133);
    expect(pacer.shownOffset(1)).toBe(133);
  });

  it('counts an offset only while the sound is heard, and forgets offsets that are no longer recent', () => {
    const pacer = new PicturePacer<string>();
    // Silence (or a muted player, or a still picture): the sound's clock still paces, but nothing is measured.
    pacer.push(1000, 'a', 0);
    expect(pacer.take(1000, 0, true, 0, false).show).toBe('a');
    expect(pacer.shownOffset(0)).toBeNull();
    // Heard: measured.
    pacer.push(1033, 'b', 33);
    expect(pacer.take(1030, 33, true, 0, true).show).toBe('b');
    expect(pacer.shownOffset(33)).toBe(3);
    // Nothing for longer than the offsets stay fresh: no figure, rather than the last one.
    expect(pacer.shownOffset(33 + AV_SYNC.freshMs + 1)).toBeNull();
    expect(pacer.naturalOffset(33 + AV_SYNC.freshMs + 1)).toBeNull();
  });

  it('keeps what was shown when only the sound delay moved, and nothing when the way of showing changed', () => {
    const pacer = new PicturePacer<string>();
    pacer.push(1040, 'a', 0);
    expect(pacer.take(1000, 0, false).show).toBe('a');
    pacer.forgetOffsets('natural');
    expect(pacer.naturalOffset(0)).toBeNull();
    expect(pacer.shownOffset(0)).toBe(40);
    pacer.forgetOffsets();
    expect(pacer.shownOffset(0)).toBeNull();
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

describe('PacketStamps', () => {
  it("gives decoded sound its own packet's stamp, so a packet lost on the way shifts nothing after it", () => {
    const stamps = new PacketStamps();
    // Packets 10 ms apart; the one at 1020 never arrived (the server dropped it for a backed-up socket).
    for (const timestamp of [1000, 1010, 1030, 1040]) stamps.decoding(timestamp, 1);
    // The decoder counts samples from its first packet: 1000, 1010, 1020, 1030. The sound is the packets'.
    expect([1000, 1010, 1020, 1030].map((counted) => stamps.decoded(counted))).toEqual([
      1000, 1010, 1030, 1040,
    ]);
    // Nothing known: the decoder's own stamp.
    expect(stamps.decoded(1050)).toBe(1050);
  });

  it('starts again with a new decoder, and never keeps more stamps than a decoder could hold', () => {
    const stamps = new PacketStamps();
    stamps.decoding(1000, 0);
    stamps.clear();
    stamps.decoding(2000, 0);
    expect(stamps.decoded(0)).toBe(2000);
    for (let i = 0; i < AV_SYNC.maxStampsAhead + 10; i += 1) stamps.decoding(3000 + i * 10, 0);
    // The oldest ten went: a decoder queueing nothing cannot owe that many outputs.
    expect(stamps.decoded(0)).toBe(3000 + 10 * 10);
  });
});
