import { describe, expect, it } from 'vitest';
import { JitterBuffer } from './jitter-buffer';

// 1 kHz keeps the numbers readable: 1 frame = 1 ms, a 20 ms packet = 20 frames, a quantum of 10 frames.
const RATE = 1000;
const packet = (value: number, frames = 20) => [new Float32Array(frames).fill(value)];
const stereo = (left: number, right: number, frames = 20) => [
  new Float32Array(frames).fill(left),
  new Float32Array(frames).fill(right),
];
const quantum = (channels = 2, frames = 10) =>
  Array.from({ length: channels }, () => new Float32Array(frames));

function buffer(targetMs = 60, maxMs = 120) {
  return new JitterBuffer({ sampleRate: RATE, targetMs, maxMs });
}

/** A buffer that trims to a 10 ms floor after each `windowMs`, with room enough never to drop at its maximum. */
function windowed(targetMs: number, windowMs: number) {
  return new JitterBuffer({ sampleRate: RATE, targetMs, maxMs: 500, floorMs: 10, windowMs });
}

describe('JitterBuffer', () => {
  it('stays silent until the target is queued, then plays with the timestamps of what it plays', () => {
    const jitter = buffer();
    jitter.push(1000, packet(0.5));
    jitter.push(1020, packet(0.5));
    const out = quantum();
    expect(jitter.pull(out)).toBeNull();
    expect(out[0]?.every((sample) => sample === 0)).toBe(true);

    jitter.push(1040, packet(0.5));
    expect(jitter.pull(out)).toBe(1000);
    expect(out[0]?.every((sample) => sample === 0.5)).toBe(true);
    expect(jitter.pull(out)).toBe(1010);
    expect(jitter.pull(out)).toBe(1020);
    expect(jitter.stats()).toMatchObject({ bufferedMs: 30, playing: true, underruns: 0 });
  });

  it('plays silence when it runs dry and waits for the target again', () => {
    const jitter = buffer(20);
    jitter.push(0, packet(1, 25));
    const out = quantum();
    expect(jitter.pull(out)).toBe(0);
    expect(jitter.pull(out)).toBe(10);
    // 5 frames left: they play, the rest of the quantum is silence.
    expect(jitter.pull(out)).toBe(20);
    expect([...(out[0] ?? [])]).toEqual([1, 1, 1, 1, 1, 0, 0, 0, 0, 0]);
    expect(jitter.stats()).toMatchObject({ underruns: 1, playing: false });

    jitter.push(100, packet(1, 10));
    expect(jitter.pull(out)).toBeNull();
    jitter.push(110, packet(1, 10));
    expect(jitter.pull(out)).toBe(100);
  });

  it('drops the oldest sound down to the target when more than the maximum piles up', () => {
    const jitter = buffer(60, 120);
    for (let i = 0; i < 6; i += 1) jitter.push(i * 20, packet(i));
    expect(jitter.stats().bufferedMs).toBe(120);
    jitter.push(120, packet(6));
    // 140 ms queued > 120: drop 80 ms, keep the newest 60.
    expect(jitter.stats()).toMatchObject({ bufferedMs: 60, droppedFrames: 80 });
    const out = quantum();
    expect(jitter.pull(out)).toBe(80);
    expect(out[0]?.[0]).toBe(4);
  });

  it('plays mono on both speakers and mixes stereo down for a mono output', () => {
    const jitter = buffer(10);
    jitter.push(0, packet(0.25));
    const out = quantum(2);
    jitter.pull(out);
    expect(out[0]?.[0]).toBe(0.25);
    expect(out[1]?.[0]).toBe(0.25);

    const mono = buffer(10);
    mono.push(0, stereo(0.2, 0.6));
    const one = quantum(1);
    mono.pull(one);
    expect(one[0]?.[0]).toBeCloseTo(0.4);

    const both = buffer(10);
    both.push(0, stereo(0.2, 0.6));
    const two = quantum(2);
    both.pull(two);
    expect([two[0]?.[0], two[1]?.[0]]).toEqual([expect.closeTo(0.2), expect.closeTo(0.6)]);
  });

  it('a longer target delays the sound and raises the maximum with it', () => {
    const jitter = buffer(20, 60);
    jitter.setTarget(100);
    for (let i = 0; i < 4; i += 1) jitter.push(i * 20, packet(1));
    expect(jitter.pull(quantum())).toBeNull();
    for (let i = 4; i < 7; i += 1) jitter.push(i * 20, packet(1));
    // 140 ms queued is under the moved maximum (140): nothing dropped.
    expect(jitter.stats()).toMatchObject({ bufferedMs: 140, droppedFrames: 0 });
    expect(jitter.pull(quantum())).toBe(0);
  });

  it('drops sound that stayed queued above the floor for a whole window', () => {
    const jitter = windowed(60, 100);
    for (let i = 0; i < 10; i += 1) jitter.push(i * 20, packet(i));
    // 200 ms queued; arrivals keep pace with playing, so the level never falls below 200 - 10 in the window.
    let next = 200;
    for (let pulled = 0; pulled < 100; pulled += 10) {
      jitter.pull(quantum());
      if (pulled % 20 === 10) {
        jitter.push(next, packet(0));
        next += 20;
      }
    }
    // The window ended with 190 ms as its lowest level: 180 above the floor are dropped at once.
    expect(jitter.stats().droppedFrames).toBe(180);
    expect(jitter.stats().bufferedMs).toBeLessThanOrEqual(20);
  });

  it('pauses to grow back to the floor when the sound is to be delayed', () => {
    const jitter = windowed(20, 40);
    for (let i = 0; i < 4; i += 1) jitter.push(i * 20, packet(1));
    jitter.setDelay(50);
    const out = quantum();
    // The window's lowest level was 50 ms, 10 under the moved floor (60): a quantum of silence follows while
    // the queue grows back.
    for (let i = 0; i < 4; i += 1) expect(jitter.pull(out)).not.toBeNull();
    expect(jitter.pull(out)).toBeNull();
    expect(jitter.stats().bufferedMs).toBe(40);
  });

  it('takes more headroom at once as a pause, keeps it in the floor, and gives it back at the trim', () => {
    const jitter = windowed(20, 100);
    for (let i = 0; i < 2; i += 1) jitter.push(i * 20, packet(1));
    const out = quantum();
    expect(jitter.pull(out)).toBe(0);
    // 30 ms more headroom while playing: three quanta of silence now, the queue untouched by them.
    jitter.setHeadroom(30);
    for (let i = 0; i < 3; i += 1) expect(jitter.pull(out)).toBeNull();
    expect(jitter.stats()).toMatchObject({ bufferedMs: 30, playing: true });
    // Arrivals keep pace: the level stays near 40 (floor 10 + 30), so the window's trim leaves it.
    let next = 40;
    for (let pulled = 0; pulled < 100; pulled += 10) {
      if (pulled % 20 === 0) {
        jitter.push(next, packet(1));
        next += 20;
      }
      expect(jitter.pull(out)).not.toBeNull();
    }
    expect(jitter.stats().droppedFrames).toBe(0);
    // Given back: the next window's trim drops what is queued above the old floor.
    jitter.setHeadroom(0);
    for (let pulled = 0; pulled < 100; pulled += 10) {
      if (pulled % 20 === 0) {
        jitter.push(next, packet(1));
        next += 20;
      }
      jitter.pull(out);
    }
    expect(jitter.stats().droppedFrames).toBeGreaterThan(0);
    expect(jitter.stats().underruns).toBe(0);
  });
});
