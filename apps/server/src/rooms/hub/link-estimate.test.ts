import { describe, expect, it } from 'vitest';
import { LinkEstimate } from './link-estimate';

describe('a link estimate', () => {
  it('learns the link’s own round trip and counts what waits beyond it as queueing', () => {
    const link = new LinkEstimate();
    // 10 KB every 100 ms, each acknowledged 20 ms after it left: a calm link.
    for (let at = 0; at < 1000; at += 100) {
      link.sent(10_000, at);
      link.acked((at / 100 + 1) * 10_000, at + 20);
    }
    expect(link.baseRttMs(1020)).toBe(20);
    expect(link.signals(1020).queueDelayMs).toBe(0);
    // Then an ack comes 320 ms after its bytes left: 300 ms waited on the way.
    link.sent(10_000, 1000);
    link.acked(110_000, 1320);
    expect(link.signals(1320).queueDelayMs).toBe(300);
  });

  it('takes off the time the viewer held its ack, which is not the link’s', () => {
    const link = new LinkEstimate();
    link.sent(1000, 0);
    link.acked(1000, 20);
    link.sent(1000, 100);
    link.acked(2000, 210, 200, 90);
    expect(link.signals(210).queueDelayMs).toBe(0);
  });

  it('sees a link that stopped acknowledging: the oldest unacknowledged bytes keep ageing', () => {
    const link = new LinkEstimate();
    link.sent(1000, 0);
    link.acked(1000, 10);
    link.sent(50_000, 100);
    expect(link.signals(200).queueDelayMs).toBe(0);
    // 600 ms later: less the round trip and the ack's usual gathering, 470 ms of waiting.
    expect(link.signals(700).queueDelayMs).toBe(470);
    expect(link.signals(700).inFlight).toBe(50_000);
  });

  it('measures delivery on the viewer’s clock over spans long enough that whole messages do not mislead', () => {
    const link = new LinkEstimate();
    // 1 Mbit/s delivered: 12.5 KB every 100 ms of the viewer's time, the acks reaching us with jitter.
    let total = 0;
    for (let at = 0; at <= 2000; at += 100) {
      link.sent(12_500, at);
      total += 12_500;
      link.acked(total, at + 30 + (at % 300 === 0 ? 40 : 0), at + 10);
    }
    const signals = link.signals(2100);
    expect(signals.capacityKbps).toBeCloseTo(1000, -1);
    expect(signals.deliveryKbps).toBeCloseTo(1000, -2);
    // After congestion what the link showed before no longer counts.
    link.forgetCapacity();
    expect(link.signals(2100).capacityKbps).toBe(0);
  });

  it('believes no ack of more than was sent', () => {
    const link = new LinkEstimate();
    link.sent(1000, 0);
    link.acked(5000, 10);
    expect(link.inFlight).toBe(0);
    link.sent(1000, 20);
    expect(link.inFlight).toBe(1000);
  });
});
