import { describe, expect, it } from 'vitest';
import { JitterBuffer, type TJitterOptions } from './jitter-buffer';

// 1 kHz keeps the numbers readable: 1 frame = 1 ms, a 20 ms packet = 20 frames, a quantum of 10 frames.
const RATE = 1000;
const packet = (value: number, frames = 20) => [new Float32Array(frames).fill(value)];
const stereo = (left: number, right: number, frames = 20) => [
  new Float32Array(frames).fill(left),
  new Float32Array(frames).fill(right),
];
const quantum = (channels = 2, frames = 10) =>
  Array.from({ length: channels }, () => new Float32Array(frames));

function buffer(options: Partial<TJitterOptions> = {}) {
  return new JitterBuffer({
    sampleRate: RATE,
    maxMs: 200,
    marginMs: 5,
    spreadShare: 0,
    windowMs: 400,
    slackMs: 10,
    ...options,
  });
}

/**
 * Packets of 20 ms, one every 20 ms, arriving `lag(i)` ms after the 20 ms slot they were made in, stamped
 * `stamp(i)` (by default the slot), against quanta pulled every 10 ms from time 0 to `until`: what each quantum
 * played (its timestamp, null for silence).
 */
function run(
  jitter: JitterBuffer,
  lag: (index: number) => number,
  until: number,
  stamp = (index: number) => index * 20,
): (number | null)[] {
  const arrivals = Array.from({ length: Math.ceil(until / 20) }, (_, i) => ({
    at: i * 20 + lag(i),
    stamp: stamp(i),
  }));
  const played: (number | null)[] = [];
  for (let now = 0; now < until; now += 10) {
    while (arrivals[0] && arrivals[0].at <= now) {
      const next = arrivals.shift();
      if (next) jitter.push(next.stamp, packet(1), now);
    }
    played.push(jitter.pull(quantum(), now));
  }
  return played;
}

describe('JitterBuffer', () => {
  it('plays each packet at its stamp plus the lag its arrivals showed and a margin', () => {
    const jitter = buffer();
    // Stamped 1000, here at 1030: due at 1035.
    jitter.push(1000, packet(0.5), 1030);
    const out = quantum();
    expect(jitter.pull(out, 1020)).toBeNull();
    expect(out[0]?.every((sample) => sample === 0)).toBe(true);
    expect(jitter.pull(out, 1035)).toBe(1000);
    expect(out[0]?.every((sample) => sample === 0.5)).toBe(true);
    jitter.push(1020, packet(0.5), 1050);
    expect(jitter.pull(out, 1045)).toBe(1010);
    expect(jitter.pull(out, 1055)).toBe(1020);
    expect(jitter.stats()).toMatchObject({ bufferedMs: 10, delayMs: 5, playing: true, underruns: 0 });
  });

  it('waits for a packet later than any before once, by what it needed, and plays evenly after it', () => {
    const jitter = buffer({ windowMs: 4000 });
    // 30 ms late each, one of them 60 ms.
    const played = run(jitter, (i) => (i === 20 ? 60 : 30), 1000);
    const sounding = played.filter((stamp) => stamp !== null);
    // From the first packet on, every quantum is the next 10 ms of sound, but for a gap of 30 ms (3 quanta)
    // where the late packet was due.
    expect(jitter.stats().underruns).toBe(1);
    expect(played.slice(3, 43).every((stamp) => stamp !== null)).toBe(true);
    expect(played.slice(43, 46)).toEqual([null, null, null]);
    expect(sounding.every((stamp, i) => i === 0 || stamp === (sounding[i - 1] ?? 0) + 10)).toBe(true);
    // The sound now plays 35 ms after the earliest arrivals (30 more than them, plus the margin).
    expect(jitter.stats().delayMs).toBe(35);
  });

  it("keeps a share of the arrivals' spread beyond the latest of them", () => {
    const jitter = buffer({ spreadShare: 0.2, windowMs: 4000 });
    run(jitter, (i) => (i % 2 ? 70 : 20), 1000);
    // 50 ms between the earliest and the latest: 5 + 10 ms beyond the latest, 65 beyond the earliest.
    expect(jitter.stats().delayMs).toBe(65);
  });

  it('comes back down once the late packet has left its window', () => {
    const jitter = buffer({ windowMs: 400 });
    const played = run(jitter, (i) => (i === 5 ? 60 : 30), 2000);
    expect(jitter.stats()).toMatchObject({ delayMs: 5, underruns: 1 });
    // Coming down skipped the ~30 ms it no longer needed: the sound plays 30-35 ms after its stamp again.
    expect(jitter.stats().droppedFrames).toBeGreaterThanOrEqual(25);
    expect(1990 - (played.at(-1) ?? 0)).toBeGreaterThanOrEqual(30);
    expect(1990 - (played.at(-1) ?? 0)).toBeLessThanOrEqual(35);
  });

  it('keeps only what could still play while nothing pulls, and starts at the sound due when pulled again', () => {
    const jitter = buffer({ maxMs: 100 });
    for (let i = 0; i < 20; i += 1) jitter.push(i * 20, packet(i), i * 20 + 30);
    expect(jitter.stats().bufferedMs).toBe(100);
    // At 410 the sound stamped 375 is due: 300 ms were dropped while queued, 75 more as too late.
    expect(jitter.pull(quantum(), 410)).toBe(375);
    expect(jitter.stats().droppedFrames).toBe(375);
  });

  it('delays the sound by the extra asked for, and forgets everything on clear', () => {
    const jitter = buffer();
    jitter.push(0, packet(1), 30);
    jitter.setDelay(50);
    expect(jitter.pull(quantum(), 35)).toBeNull();
    expect(jitter.pull(quantum(), 85)).toBe(0);
    jitter.clear();
    expect(jitter.stats()).toMatchObject({ bufferedMs: 0, delayMs: null, playing: false });
    // Learnt afresh: 10 ms late now.
    jitter.setDelay(0);
    jitter.push(5000, packet(1), 1010);
    expect(jitter.pull(quantum(), 1015)).toBe(5000);
  });

  it('learns a new timeline when the stamps jump for good', () => {
    const jitter = buffer({ windowMs: 400 });
    // The stamps start over 10 s earlier at packet 30 (the server's encoder restarted).
    const played = run(
      jitter,
      () => 30,
      2000,
      (i) => (i < 30 ? i * 20 : i * 20 - 10_000),
    );
    // Silent for a slice of the window (100 ms) from the first packet on the new timeline (due at 630), then on.
    expect(played.slice(63, 73).every((stamp) => stamp === null)).toBe(true);
    expect(played.slice(74).every((stamp) => stamp !== null && stamp < 0)).toBe(true);
    expect(jitter.stats().delayMs).toBe(5);
  });

  it('plays mono on both speakers and mixes stereo down for a mono output', () => {
    const jitter = buffer();
    jitter.push(0, packet(0.25), 0);
    const out = quantum(2);
    jitter.pull(out, 5);
    expect(out[0]?.[0]).toBe(0.25);
    expect(out[1]?.[0]).toBe(0.25);

    const mono = buffer();
    mono.push(0, stereo(0.2, 0.6), 0);
    const one = quantum(1);
    mono.pull(one, 5);
    expect(one[0]?.[0]).toBeCloseTo(0.4);

    const both = buffer();
    both.push(0, stereo(0.2, 0.6), 0);
    const two = quantum(2);
    both.pull(two, 5);
    expect([two[0]?.[0], two[1]?.[0]]).toEqual([expect.closeTo(0.2), expect.closeTo(0.6)]);
  });
});
