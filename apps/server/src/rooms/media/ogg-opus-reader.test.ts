// Opus packets come out of the Ogg framing whole, wherever the pipe splits it, placed on the sample clock; and
// the server-clock timestamps made from them stay steady when arrival times jitter.
import { describe, expect, it } from 'vitest';
import { OggOpusReader, type TOpusPacket } from './ogg-opus-reader';
import { OpusTimeline } from './opus-encoder';
import { oggOpus } from './testing/decode-check';

describe('OggOpusReader', () => {
  it.each([1, 5, 64, 100_000])(
    'yields every packet after the two headers from %i-byte pieces',
    (pieceBytes) => {
      // A 300-byte packet spans two lacing segments (255 + 45).
      const sent = [Buffer.alloc(3, 1), Buffer.alloc(300, 2), Buffer.alloc(0), Buffer.alloc(255, 4)];
      const stream = oggOpus(sent);
      const packets: TOpusPacket[] = [];
      const reader = new OggOpusReader((packet) => packets.push(packet));
      for (let offset = 0; offset < stream.length; offset += pieceBytes) {
        reader.push(stream.subarray(offset, offset + pieceBytes));
      }
      expect(packets.map((packet) => Buffer.from(packet.data))).toEqual(sent);
      expect(packets.map((packet) => packet.endSample)).toEqual([960, 1920, 2880, 3840]);
    },
  );
});

describe('OpusTimeline', () => {
  it('stamps packets 20 ms apart from the least delayed arrival, whatever the jitter', () => {
    const timeline = new OpusTimeline();
    const delays = [30, 12, 25, 40, 10, 18, 22];
    const stamps = delays.map((delay, index) =>
      timeline.place((index + 1) * 960, 1000 + (index + 1) * 20 + delay),
    );
    const steps = stamps.slice(1).map((stamp, index) => stamp - stamps[index]!);
    // Before the 10 ms packet arrives the mapping only moves earlier; after it, steps are 20 ms (+ the slow creep).
    expect(steps.slice(4).every((step) => Math.abs(step - 20) < 0.1)).toBe(true);
    // The packet's start: its sound's end (1000 + 20·n) minus 20 ms, plus the smallest delay seen.
    expect(stamps[6]).toBeCloseTo(1000 + 7 * 20 - 20 + 10, 0);
  });
});
