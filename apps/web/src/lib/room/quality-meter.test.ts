import { describe, expect, it } from 'vitest';
import { formatBitrate, PING_EVERY_MS, QualityMeter } from './quality-meter';

/** A picture stamped `timestamp` on the server arrives at client time `at` and is painted 10 ms later. */
function picture(meter: QualityMeter, timestamp: number, at: number): void {
  meter.frame(timestamp, 1000, at);
  meter.painted(timestamp, at + 10);
}

/** The room answers a ping sent at `sentAt` after `rtt` ms; server clock = client clock + 10 000. */
function pong(meter: QualityMeter, sentAt: number, rtt = 20): void {
  meter.pong(sentAt, sentAt + rtt / 2 + 10_000, sentAt + rtt);
}

describe('QualityMeter', () => {
  it('counts frames and bits of the last second', () => {
    const meter = new QualityMeter();
    for (let i = 0; i < 30; i += 1) meter.frame(0, 1000, 1000 + i * 33);
    const quality = meter.read(1990);
    expect(quality.fps).toBe(30);
    expect(quality.bitrate).toBe(240_000);
    expect(meter.read(5000).fps).toBe(0);
  });

  it('estimates latency once a ping related the clocks', () => {
    const meter = new QualityMeter();
    meter.frame(500, 10, 100);
    expect(meter.read(100).latencyMs).toBeNull();
    // Server clock = client clock + 10 000; a 20 ms round trip.
    meter.pong(1000, 11_010, 1020);
    expect(meter.read(1020).rttMs).toBe(20);
    // Sent by the server at 11 500, arrived at client 1540 = server 11 540: 40 ms.
    meter.frame(11_500, 10, 1540);
    expect(meter.read(1540).latencyMs).toBe(40);
  });

  it("gives the driver's own measured input latency, and watchers an estimate from pings and picture ages", () => {
    const meter = new QualityMeter();
    pong(meter, 1000);
    // Pictures painted 30 ms after their server timestamp (arrived 20 ms after it).
    for (let i = 0; i < 5; i += 1) picture(meter, 11_000 + i * 33, 1020 + i * 33);
    // Before any input: half the round trip + a typical room share (35) + the paint age.
    expect(meter.read(1200)).toMatchObject({ inputLatencyKind: 'estimated', inputLatencyMs: 10 + 35 + 30 });
    // Own inputs measured: their median, and the room's share learned from them for the estimate later.
    for (const latency of [60, 80, 70]) meter.inputShown(latency, 11_200, 1230);
    expect(meter.read(1300)).toMatchObject({ inputLatencyKind: 'measured', inputLatencyMs: 70 });
    expect(meter.read(1300).paintedFps).toBe(5);
    // A minute without inputs, the room answering and pictures flowing: back to the estimate, now with the
    // learned share (60 − 30 − 10 = 20, 40, 30).
    for (let at = 3000; at <= 62_000; at += PING_EVERY_MS) pong(meter, at);
    for (let i = 0; i < 5; i += 1) picture(meter, 71_800 + i * 33, 61_820 + i * 33);
    const later = meter.read(62_000);
    expect(later.inputLatencyKind).toBe('estimated');
    expect(later.inputLatencyMs).toBeGreaterThan(10 + 20 + 30);
    expect(later.inputLatencyMs).toBeLessThan(10 + 40 + 30);
  });

  it('reads a still page as idle while the room answers, never as a fault', () => {
    const meter = new QualityMeter();
    expect(meter.read(0)).toMatchObject({ flow: 'waiting', level: 'poor' });
    pong(meter, 0);
    for (let i = 0; i < 10; i += 1) picture(meter, 10_100 + i * 33, 100 + i * 33);
    expect(meter.read(500)).toMatchObject({ flow: 'flowing', level: 'good' });
    // The page stops moving: no pictures, but every ping is answered.
    for (let at = PING_EVERY_MS; at <= 20_000; at += PING_EVERY_MS) pong(meter, at);
    const still = meter.read(20_030);
    expect(still).toMatchObject({ flow: 'idle', level: 'good', paintedFps: 0, fps: 0 });
    // The page moves again.
    picture(meter, 30_040, 20_040);
    expect(meter.read(20_060)).toMatchObject({ flow: 'flowing', level: 'good' });
  });

  it('turns red when the room stops answering, or pictures arrive and none can be shown', () => {
    const silent = new QualityMeter();
    pong(silent, 0);
    picture(silent, 10_100, 100);
    // The pong due after the one at 0 never comes.
    expect(silent.read(PING_EVERY_MS + 500).flow).toBe('idle');
    expect(silent.read(PING_EVERY_MS * 3)).toMatchObject({ flow: 'stalled', level: 'bad', rttMs: null });

    const stuck = new QualityMeter();
    pong(stuck, 0);
    picture(stuck, 10_100, 100);
    // A decoder waiting for its next keyframe: pictures keep arriving, none is painted for 2 s.
    for (let at = 200; at <= 2200; at += 33) stuck.frame(10_000 + at, 1000, at);
    pong(stuck, PING_EVERY_MS);
    expect(stuck.read(2200)).toMatchObject({ flow: 'stuck', level: 'bad' });

    // The room skips what it meant to send us and nothing arrives: not a still page.
    const skipped = new QualityMeter();
    pong(skipped, 0);
    picture(skipped, 10_100, 100);
    pong(skipped, PING_EVERY_MS);
    skipped.stats(40, PING_EVERY_MS);
    expect(skipped.read(PING_EVERY_MS + 100)).toMatchObject({ flow: 'stalled', level: 'bad' });
  });

  it('shows no latency while no pictures arrive, rather than the last one', () => {
    const meter = new QualityMeter();
    pong(meter, 0);
    for (let i = 0; i < 10; i += 1) picture(meter, 10_100 + i * 33, 120 + i * 33);
    const flowing = meter.read(500);
    expect(flowing.latencyMs).toBe(20);
    expect(flowing.paintAgeMs).toBe(30);
    expect(flowing.inputLatencyMs).toBe(10 + 35 + 30);
    // Nothing arrives for 8 s, the room answering all along: no figure at all.
    for (let at = PING_EVERY_MS; at <= 8000; at += PING_EVERY_MS) pong(meter, at);
    const quiet = meter.read(8500);
    expect(quiet).toMatchObject({
      latencyMs: null,
      paintAgeMs: null,
      inputLatencyMs: null,
      inputLatencyKind: null,
    });
    // Pictures again, older this time: the figure is theirs, not a mix with the old ones.
    for (let i = 0; i < 5; i += 1) picture(meter, 18_550 + i * 33, 8600 + i * 33);
    expect(meter.read(8800).latencyMs).toBe(50);
  });

  it('keeps a driver’s measured latency only while the room answers', () => {
    const meter = new QualityMeter();
    pong(meter, 0);
    picture(meter, 10_100, 120);
    meter.inputShown(80, 10_100, 130);
    expect(meter.read(1000)).toMatchObject({ inputLatencyKind: 'measured', inputLatencyMs: 80 });
    expect(meter.read(PING_EVERY_MS * 3)).toMatchObject({ inputLatencyKind: null, inputLatencyMs: null });
  });

  it('counts skipped frames only from a recent report', () => {
    const meter = new QualityMeter();
    pong(meter, 0);
    picture(meter, 10_100, 100);
    meter.stats(3, 150);
    expect(meter.read(200)).toMatchObject({ skipped: 3, level: 'poor' });
    for (let at = PING_EVERY_MS; at <= 10_000; at += PING_EVERY_MS) pong(meter, at);
    picture(meter, 20_000, 10_000);
    expect(meter.read(10_050)).toMatchObject({ skipped: 0, level: 'good' });
  });

  it('formats bitrates for people', () => {
    expect(formatBitrate(2_500_000)).toBe('2.5 Mbps');
    expect(formatBitrate(640_000)).toBe('640 kbps');
  });
});
