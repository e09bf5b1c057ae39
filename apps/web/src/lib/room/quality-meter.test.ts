import { describe, expect, it } from 'vitest';
import { formatBitrate, QualityMeter } from './quality-meter';

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
    // Server clock = client clock + 10 000; a 20 ms round trip.
    meter.pong(1000, 11_010, 1020);
    // Pictures painted 30 ms after their server timestamp.
    for (let i = 0; i < 5; i += 1) meter.painted(11_000 + i * 33, 1030 + i * 33);
    // Before any input: half the round trip + a typical room share (35) + the paint age.
    expect(meter.read(1200)).toMatchObject({ inputLatencyKind: 'estimated', inputLatencyMs: 10 + 35 + 30 });
    // Own inputs measured: their median, and the room's share learned from them for the estimate later.
    for (const latency of [60, 80, 70]) meter.inputShown(latency, 11_200, 1230);
    expect(meter.read(1300)).toMatchObject({ inputLatencyKind: 'measured', inputLatencyMs: 70 });
    expect(meter.read(1300).paintedFps).toBe(5);
    // A minute without inputs: back to the estimate, now with the learned share (60 − 30 − 10 = 20, 40, 30).
    const later = meter.read(62_000);
    expect(later.inputLatencyKind).toBe('estimated');
    expect(later.inputLatencyMs).toBeGreaterThan(10 + 20 + 30);
    expect(later.inputLatencyMs).toBeLessThan(10 + 40 + 30);
  });

  it('formats bitrates for people', () => {
    expect(formatBitrate(2_500_000)).toBe('2.5 Mbps');
    expect(formatBitrate(640_000)).toBe('640 kbps');
  });
});
