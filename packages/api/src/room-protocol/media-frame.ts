// The binary WebSocket message that carries one media chunk. Plain DataView/Uint8Array code, so the same
// functions run in Node (the relay) and the browser (the player).
//
// Layout, big-endian, 16-byte header then the payload:
//
//   offset  size  field
//   0       1     version        MEDIA_FRAME_VERSION (1); a client refuses frames of a version it does not know
//   1       1     codec id       1 jpeg, 2 h264 (Annex B access unit), 3 opus (one packet), 0 padding (no media:
//                                bytes the server sends to learn whether a viewer's link carries more; a client
//                                counts them in stream/ack and otherwise ignores them)
//   2       1     flags          bit 0: keyframe (a decoder can start here; every JPEG frame is one)
//   3       1     reserved       0
//   4       2     width          picture width in pixels, 0 for audio
//   6       2     height         picture height in pixels, 0 for audio
//   8       8     timestamp      float64 milliseconds on the server's monotonic clock (see system/pong)
//   16      …     payload        the codec's bytes
//
// The timestamp sits at offset 8 so it is 8-byte aligned; the header is fixed-size so the payload is a view,
// never a copy, on decode.
import type { TMediaCodecName } from './stream';

export const MEDIA_FRAME_VERSION = 1;
export const MEDIA_FRAME_HEADER_BYTES = 16;

const CODEC_IDS: Record<TMediaCodecName, number> = { jpeg: 1, h264: 2, opus: 3 };
const CODECS_BY_ID: Record<number, TMediaCodecName | undefined> = { 1: 'jpeg', 2: 'h264', 3: 'opus' };
const FLAG_KEYFRAME = 0b0000_0001;
const MAX_DIMENSION = 0xffff;

export interface TMediaFrame {
  codec: TMediaCodecName;
  keyframe: boolean;
  timestamp: number;
  width: number;
  height: number;
  data: Uint8Array;
}

const PADDING_CODEC_ID = 0;

/** Filler of `bytes` bytes in all (header included), sent only to clients that acknowledge (stream/ack). */
export function encodePaddingFrame(bytes: number): Uint8Array<ArrayBuffer> {
  const frame = new Uint8Array(Math.max(MEDIA_FRAME_HEADER_BYTES, bytes));
  frame[0] = MEDIA_FRAME_VERSION;
  frame[1] = PADDING_CODEC_ID;
  return frame;
}

/** What a browser (ArrayBuffer with binaryType 'arraybuffer') or Node's `ws` (Buffer) hands over, as bytes. */
function bytesOf(message: ArrayBuffer | ArrayBufferView): Uint8Array {
  return message instanceof ArrayBuffer
    ? new Uint8Array(message)
    : new Uint8Array(message.buffer, message.byteOffset, message.byteLength);
}

export function isPaddingFrame(message: ArrayBuffer | ArrayBufferView): boolean {
  const bytes = bytesOf(message);
  return bytes.byteLength >= 2 && bytes[0] === MEDIA_FRAME_VERSION && bytes[1] === PADDING_CODEC_ID;
}

/** Whether an encoded media frame starts a picture a decoder can begin at, read from its header alone. */
export function isKeyframeFrame(frame: Uint8Array): boolean {
  return frame.byteLength >= MEDIA_FRAME_HEADER_BYTES && ((frame[2] ?? 0) & FLAG_KEYFRAME) !== 0;
}

export class MediaFrameError extends Error {
  override name = 'MediaFrameError';
}

export function encodeMediaFrame(frame: TMediaFrame): Uint8Array<ArrayBuffer> {
  const { width, height } = frame;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0) {
    throw new MediaFrameError(`bad picture size ${width}×${height}`);
  }
  if (width > MAX_DIMENSION || height > MAX_DIMENSION) {
    throw new MediaFrameError(`picture size ${width}×${height} does not fit the header`);
  }
  const bytes = new Uint8Array(MEDIA_FRAME_HEADER_BYTES + frame.data.byteLength);
  const view = new DataView(bytes.buffer);
  view.setUint8(0, MEDIA_FRAME_VERSION);
  view.setUint8(1, CODEC_IDS[frame.codec]);
  view.setUint8(2, frame.keyframe ? FLAG_KEYFRAME : 0);
  view.setUint8(3, 0);
  view.setUint16(4, width);
  view.setUint16(6, height);
  view.setFloat64(8, frame.timestamp);
  bytes.set(frame.data, MEDIA_FRAME_HEADER_BYTES);
  return bytes;
}

export function decodeMediaFrame(message: ArrayBuffer | ArrayBufferView): TMediaFrame {
  const bytes = bytesOf(message);
  if (bytes.byteLength < MEDIA_FRAME_HEADER_BYTES) {
    throw new MediaFrameError(`a media frame has at least ${MEDIA_FRAME_HEADER_BYTES} bytes`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint8(0);
  if (version !== MEDIA_FRAME_VERSION) throw new MediaFrameError(`unknown media frame version ${version}`);
  const codec = CODECS_BY_ID[view.getUint8(1)];
  if (!codec) throw new MediaFrameError(`unknown codec id ${view.getUint8(1)}`);
  return {
    codec,
    keyframe: (view.getUint8(2) & FLAG_KEYFRAME) !== 0,
    width: view.getUint16(4),
    height: view.getUint16(6),
    timestamp: view.getFloat64(8),
    data: bytes.subarray(MEDIA_FRAME_HEADER_BYTES),
  };
}
