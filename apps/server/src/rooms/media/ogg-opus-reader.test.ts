// Opus packets come out of the Ogg framing whole, wherever the pipe splits it, placed on the sample clock; and
// the server-clock timestamps made from them stay steady when arrival times jitter.
import { describe, expect, it } from 'vitest';
import { oggOpus, oggPage } from '../../testing/rooms/decode-check';
import { OggOpusReader, opusPacketSamples, type TOpusPacket } from './ogg-opus-reader';
import { OpusTimeline } from './opus-encoder';

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
      // The packets' first bytes read as Opus TOC bytes: 2 × 10 ms, 2 × 10 ms, nothing, 1 × 10 ms (SILK).
      expect(packets.map((packet) => packet.endSample)).toEqual([960, 1920, 1920, 2400]);
    },
  );

  it('places packets that share a page end to end before its granule position, by their own lengths', () => {
    // CELT 10 ms (config 18), CELT 20 ms (config 19), and two CELT 5 ms frames in one packet (config 17, code 1).
    const sent = [
      Buffer.from([18 << 3, 1, 2]),
      Buffer.from([19 << 3, 3]),
      Buffer.from([(17 << 3) | 1, 4, 5]),
    ];
    const stream = Buffer.concat([oggOpus([]), oggPage(sent, 48_000)]);
    const packets: TOpusPacket[] = [];
    new OggOpusReader((packet) => packets.push(packet)).push(stream);
    expect(packets.map((packet) => [packet.endSample, packet.samples])).toEqual([
      [48_000 - 960 - 480, 480],
      [48_000 - 480, 960],
      [48_000, 480],
    ]);
  });
});

describe('opusPacketSamples', () => {
  it.each([
    ['SILK 10 ms', [0 << 3], 480],
    ['SILK 60 ms', [3 << 3], 2880],
    ['hybrid 20 ms', [13 << 3], 960],
    ['CELT 2.5 ms', [16 << 3], 120],
    ['CELT 10 ms', [18 << 3], 480],
    ['CELT 20 ms, two frames', [(19 << 3) | 2], 1920],
    ['CELT 5 ms, code 3 with 6 frames', [(17 << 3) | 3, 6], 1440],
    ['empty', [], 0],
  ])('%s', (_name, bytes, samples) => {
    expect(opusPacketSamples(Uint8Array.from(bytes))).toBe(samples);
  });
});

describe('OpusTimeline', () => {
  it.each([
    [10, 480],
    [20, 960],
  ])(
    'stamps %i ms packets that far apart from the least delayed arrival, whatever the jitter',
    (ms, samples) => {
      const timeline = new OpusTimeline();
      const delays = [30, 12, 25, 40, 10, 18, 22];
      const stamps = delays.map((delay, index) =>
        timeline.place((index + 1) * samples, samples, 1000 + (index + 1) * ms + delay),
      );
      const steps = stamps.slice(1).map((stamp, index) => stamp - stamps[index]!);
      // Before the 10 ms delay arrives the mapping only moves earlier; after it, steps are one packet (+ the creep).
      expect(steps.slice(4).every((step) => Math.abs(step - ms) < 0.1)).toBe(true);
      // The packet's start: its sound's end (1000 + ms·n) minus its length, plus the smallest delay seen.
      expect(stamps[6]).toBeCloseTo(1000 + 7 * ms - ms + 10, 0);
    },
  );
});
