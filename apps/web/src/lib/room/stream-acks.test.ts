import { describe, expect, it } from 'vitest';
import { ACK_EVERY_MS, StreamAcks, type TAckTimers } from './stream-acks';

/** A clock the test moves by hand, with the timers it fires when their time comes. */
function manualTimers() {
  let now = 0;
  let next = 1;
  const pending = new Map<number, { at: number; run: () => void }>();
  const timers: TAckTimers = {
    now: () => now,
    setTimeout: (run, ms) => {
      const id = next++;
      pending.set(id, { at: now + ms, run });
      return id;
    },
    clearTimeout: (id) => pending.delete(id as number),
  };
  return {
    timers,
    pending: () => pending.size,
    advance(to: number) {
      for (;;) {
        const due = [...pending.entries()]
          .filter(([, timer]) => timer.at <= to)
          .sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        pending.delete(due[0]);
        now = due[1].at;
        due[1].run();
      }
      now = to;
    },
  };
}

function acksWith() {
  const clock = manualTimers();
  const sent: { bytes: number; t: number }[] = [];
  const acks = new StreamAcks((bytes, t) => sent.push({ bytes, t }), clock.timers);
  /** A message of `bytes` arriving at `at`. */
  const receive = (at: number, bytes: number) => {
    clock.advance(at);
    acks.received(bytes);
  };
  return { clock, sent, acks, receive };
}

describe('StreamAcks', () => {
  it('acknowledges at once, then at most every 100 ms while media flows, with the bytes so far', () => {
    const { sent, receive } = acksWith();
    receive(0, 1000);
    expect(sent).toEqual([{ bytes: 1000, t: 0 }]);
    // Sound every 10 ms and a picture every 33 ms: one ack per interval, never one per message.
    let total = 1000;
    for (let at = 10; at < 1000; at += 10) {
      const bytes = at % 30 === 0 ? 5000 : 200;
      total += bytes;
      receive(at, bytes);
    }
    expect(sent.length).toBeGreaterThanOrEqual(9);
    expect(sent.length).toBeLessThanOrEqual(11);
    for (let i = 1; i < sent.length; i += 1) {
      expect((sent[i]?.t ?? 0) - (sent[i - 1]?.t ?? 0)).toBeGreaterThanOrEqual(ACK_EVERY_MS - 10);
      expect(sent[i]?.bytes).toBeGreaterThan(sent[i - 1]?.bytes ?? 0);
    }
    expect(sent.at(-1)?.bytes).toBeLessThanOrEqual(total);
  });

  it('acknowledges the tail of a burst once, stamped when its last bytes arrived', () => {
    const { clock, sent, receive } = acksWith();
    receive(0, 100);
    // A burst of small messages right after: too soon for an ack of its own.
    receive(5, 6000);
    receive(8, 4000);
    expect(sent).toEqual([{ bytes: 100, t: 0 }]);
    // Nothing more arrives; the timer acknowledges what came, at the time it had come.
    clock.advance(500);
    expect(sent).toEqual([
      { bytes: 100, t: 0 },
      { bytes: 10_100, t: 8 },
    ]);
    // And only once: nothing new, nothing sent, no timer left.
    clock.advance(2000);
    expect(sent).toHaveLength(2);
    expect(clock.pending()).toBe(0);
  });

  it('counts from zero for each socket, and says nothing once its socket is gone', () => {
    const first = acksWith();
    first.receive(0, 500);
    first.receive(50, 700);
    first.acks.stop();
    first.clock.advance(1000);
    expect(first.sent).toEqual([{ bytes: 500, t: 0 }]);
    first.acks.received(100);
    expect(first.sent).toHaveLength(1);

    const second = acksWith();
    second.receive(0, 300);
    expect(second.sent).toEqual([{ bytes: 300, t: 0 }]);
  });
});

describe('StreamAcks on keyframes', () => {
  it('acknowledges a large message at once, and says how long an ack was held after its last bytes', () => {
    const clock = manualTimers();
    const sent: { bytes: number; t: number; held: number }[] = [];
    const acks = new StreamAcks((bytes, t, held) => sent.push({ bytes, t, held }), clock.timers);
    clock.advance(0);
    acks.received(1000);
    clock.advance(20);
    acks.received(40_000);
    expect(sent).toEqual([
      { bytes: 1000, t: 0, held: 0 },
      { bytes: 41_000, t: 20, held: 0 },
    ]);
    clock.advance(30);
    acks.received(500);
    clock.advance(200);
    // The tail went out when the 100 ms since the last ack were up, 90 ms after its last bytes.
    expect(sent.at(-1)).toEqual({ bytes: 41_500, t: 30, held: 90 });
  });
});
