import { describe, expect, it } from 'vitest';
import { avcCodecString, findSps, hasIdr, nalType, nalUnits } from './h264';

const bytes = (...values: number[]) => Uint8Array.from(values);

// An access unit as x264 writes a keyframe with aud=1: AUD, SPS (constrained baseline, level 3.1), PPS, IDR slice.
const keyframe = bytes(
  ...[0, 0, 0, 1, 0x09, 0xf0],
  ...[0, 0, 0, 1, 0x67, 0x42, 0xc0, 0x1f, 0xda, 0x01, 0x40],
  ...[0, 0, 1, 0x68, 0xce, 0x3c, 0x80],
  ...[0, 0, 0, 1, 0x65, 0x88, 0x84, 0x00, 0x33, 0x00],
);
const delta = bytes(...[0, 0, 0, 1, 0x09, 0xf0], ...[0, 0, 0, 1, 0x41, 0x9a, 0x02, 0x04]);

describe('nalUnits', () => {
  it('splits on 3- and 4-byte start codes and drops the start codes', () => {
    const units = nalUnits(keyframe);
    expect(units.map(nalType)).toEqual([9, 7, 8, 5]);
    expect([...(units[1] ?? [])]).toEqual([0x67, 0x42, 0xc0, 0x1f, 0xda, 0x01, 0x40]);
    expect([...(units[2] ?? [])]).toEqual([0x68, 0xce, 0x3c, 0x80]);
  });

  it('keeps zero bytes inside a unit that are not part of a start code', () => {
    const units = nalUnits(keyframe);
    expect([...(units[3] ?? [])]).toEqual([0x65, 0x88, 0x84, 0x00, 0x33, 0x00]);
  });

  it('skips bytes before the first start code and finds nothing in garbage', () => {
    expect(nalUnits(bytes(7, 7, 0, 0, 1, 0x41, 1)).map(nalType)).toEqual([1]);
    expect(nalUnits(bytes(1, 2, 3, 4))).toEqual([]);
    expect(nalUnits(bytes())).toEqual([]);
  });
});

describe('keyframes', () => {
  it('finds the SPS and the IDR slice of a keyframe, and neither in a delta frame', () => {
    expect(findSps(keyframe)?.[0]).toBe(0x67);
    expect(hasIdr(keyframe)).toBe(true);
    expect(findSps(delta)).toBeNull();
    expect(hasIdr(delta)).toBe(false);
  });
});

describe('avcCodecString', () => {
  it('names profile, constraint flags and level in upper-case hex', () => {
    const sps = findSps(keyframe);
    if (!sps) throw new Error('no sps');
    expect(avcCodecString(sps)).toBe('avc1.42C01F');
    expect(avcCodecString(bytes(0x67, 0x64, 0x00, 0x28, 0xac))).toBe('avc1.640028');
    expect(avcCodecString(bytes(0x27, 0x4d, 0x40, 0x0a, 0x00))).toBe('avc1.4D400A');
  });

  it('refuses what is not an SPS', () => {
    expect(() => avcCodecString(bytes(0x68, 1, 2, 3))).toThrow();
    expect(() => avcCodecString(bytes(0x67, 0x42))).toThrow();
  });
});
