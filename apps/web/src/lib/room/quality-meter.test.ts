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

  it('formats bitrates for people', () => {
    expect(formatBitrate(2_500_000)).toBe('2.5 Mbps');
    expect(formatBitrate(640_000)).toBe('640 kbps');
  });
});
