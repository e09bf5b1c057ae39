import { describe, expect, it } from 'vitest';
import { decodeMediaFrame, encodeMediaFrame, MEDIA_FRAME_HEADER_BYTES, MediaFrameError } from './media-frame';

describe('media frames', () => {
  const frame = {
    codec: 'h264' as const,
    keyframe: true,
    timestamp: 123_456.789,
    width: 1920,
    height: 1080,
    data: new Uint8Array([0, 0, 0, 1, 0x65, 0xff]),
  };

  it('round-trip through the 16-byte header, whatever buffer type the socket hands over', () => {
    const bytes = encodeMediaFrame(frame);
    expect(bytes.byteLength).toBe(MEDIA_FRAME_HEADER_BYTES + 6);
    expect(decodeMediaFrame(bytes)).toEqual(frame);
    expect(decodeMediaFrame(bytes.buffer)).toEqual(frame);
    // Node's ws hands a Buffer that may sit at an offset inside a larger pool.
    const pooled = Buffer.concat([Buffer.from('padding'), Buffer.from(bytes)]).subarray(7);
    expect(decodeMediaFrame(pooled)).toEqual(frame);
  });

  it('keeps the documented layout', () => {
    const bytes = encodeMediaFrame({ ...frame, codec: 'jpeg', keyframe: false });
    const view = new DataView(bytes.buffer);
    expect([view.getUint8(0), view.getUint8(1), view.getUint8(2)]).toEqual([1, 1, 0]);
    expect([view.getUint16(4), view.getUint16(6)]).toEqual([1920, 1080]);
    expect(view.getFloat64(8)).toBe(123_456.789);
  });

  it('carries audio without a picture size', () => {
    const audio = {
      codec: 'opus' as const,
      keyframe: true,
      timestamp: 1,
      width: 0,
      height: 0,
      data: new Uint8Array(3),
    };
    expect(decodeMediaFrame(encodeMediaFrame(audio))).toEqual(audio);
  });

  it('refuses short frames, unknown versions and codecs', () => {
    expect(() => decodeMediaFrame(new Uint8Array(10))).toThrow(MediaFrameError);
    const bytes = encodeMediaFrame(frame);
    bytes[0] = 2;
    expect(() => decodeMediaFrame(bytes)).toThrow(/version 2/);
    bytes[0] = 1;
    bytes[1] = 9;
    expect(() => decodeMediaFrame(bytes)).toThrow(/codec id 9/);
    expect(() => encodeMediaFrame({ ...frame, width: 70_000 })).toThrow(MediaFrameError);
  });
});
