// Voice: members talk to one another. The page encodes its microphone as Opus (WebCodecs, ~32 kbit/s, 20 ms
// packets) and sends each packet as a binary voice frame on its room socket; the hub passes every speaker's packets
// on to the other members (no mixing, nothing kept) and each page decodes and plays them. JSON messages of the
// `voice/…` domain say who talks, and let the owner mute a member for everyone or turn voice off for the room.
//
// A voice frame, big-endian, 32-byte header then one Opus packet (the same first byte as ./media-frame.ts, a codec
// id no picture or room sound uses, so a page tells them apart from the header):
//
//   offset  size  field
//   0       1     version        MEDIA_FRAME_VERSION (1)
//   1       1     codec id       VOICE_CODEC_ID (4): a member's voice, never the room's own sound
//   2       1     flags          0
//   3       1     reserved       0
//   4       4     sequence       the speaker's packet count, for the listener's order
//   8       8     timestamp      float64 milliseconds on the speaker's clock: when the packet's sound was captured
//   16      16    speaker        the speaking member's id (a UUID's 16 bytes), written by the server; zeros from a page
//   32      …     payload        one Opus packet
import { z } from 'zod';
import { MEDIA_FRAME_VERSION } from './media-frame';
import { ZMemberId } from './member';

export const VOICE_CODEC_ID = 4;
export const VOICE_HEADER_BYTES = 32;
/** One Opus packet: 20 ms at 32 kbit/s is ~80 bytes, so 400 leaves room for louder moments and stereo. */
export const VOICE_PAYLOAD_MAX_BYTES = 400;
export const VOICE_FRAME_MAX_BYTES = VOICE_HEADER_BYTES + VOICE_PAYLOAD_MAX_BYTES;
/** A speaker sends 50 packets a second; beyond this many per window the rest are dropped… */
export const VOICE_FRAME_RATE_LIMIT = 75;
/** …of this many milliseconds. */
export const VOICE_FRAME_RATE_WINDOW_MS = 1000;
/** A member starts talking at most this many times per window (push-to-talk presses, open mic's gate)… */
export const VOICE_TALK_RATE_LIMIT = 20;
/** …of this many milliseconds; a start beyond it is dropped (stopping always passes). */
export const VOICE_TALK_RATE_WINDOW_MS = 10_000;
/** What the page asks its encoder for. */
export const VOICE_BITRATE = 32_000;
export const VOICE_FRAME_MS = 20;

// Client → server

/** This member starts or stops talking (push-to-talk held, or the open mic heard them); packets pass only between. */
export const ZVoiceTalk = z.object({ type: z.literal('voice/talk'), talking: z.boolean() });
/** The owner mutes (or lets talk again) a member for everyone: the person, in all their tabs, rejoins included. */
export const ZVoiceMute = z.object({
  type: z.literal('voice/mute'),
  memberId: ZMemberId,
  muted: z.boolean(),
});
/** The owner turns voice on or off for the whole room. */
export const ZVoiceEnable = z.object({ type: z.literal('voice/enable'), enabled: z.boolean() });

// Server → client

/** To every member at joining and whenever it changes: whether voice is on, who talks, who the owner muted. */
export const ZVoiceState = z.object({
  type: z.literal('voice/state'),
  enabled: z.boolean(),
  speaking: z.array(ZMemberId),
  muted: z.array(ZMemberId),
});

export type TVoiceState = z.infer<typeof ZVoiceState>;

/** What a voice frame carries, read from its header. */
export interface TVoiceFrame {
  sequence: number;
  timestamp: number;
  /** The speaker's member id (all zeros before the server wrote it). */
  speaker: string;
  data: Uint8Array;
}

function bytesOf(message: ArrayBuffer | ArrayBufferView): Uint8Array {
  return message instanceof ArrayBuffer
    ? new Uint8Array(message)
    : new Uint8Array(message.buffer, message.byteOffset, message.byteLength);
}

/** Whether a binary message is a voice frame, from its first two bytes. */
export function isVoiceFrame(message: ArrayBuffer | ArrayBufferView): boolean {
  const bytes = bytesOf(message);
  return bytes.byteLength >= 2 && bytes[0] === MEDIA_FRAME_VERSION && bytes[1] === VOICE_CODEC_ID;
}

/** A page's voice frame: the speaker's bytes are left zero for the server to write. */
export function encodeVoiceFrame(frame: Omit<TVoiceFrame, 'speaker'>): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(VOICE_HEADER_BYTES + frame.data.byteLength);
  const view = new DataView(bytes.buffer);
  view.setUint8(0, MEDIA_FRAME_VERSION);
  view.setUint8(1, VOICE_CODEC_ID);
  view.setUint32(4, frame.sequence >>> 0);
  view.setFloat64(8, frame.timestamp);
  bytes.set(frame.data, VOICE_HEADER_BYTES);
  return bytes;
}

/** Writes the speaker's member id (a UUID) into a voice frame's header, in place. */
export function writeVoiceSpeaker(frame: Uint8Array, memberId: string): void {
  const hex = memberId.replaceAll('-', '');
  for (let i = 0; i < 16; i += 1) frame[16 + i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16) || 0;
}

/** A voice frame's fields, or null when it is too short to be one. The payload is a view, not a copy. */
export function decodeVoiceFrame(message: ArrayBuffer | ArrayBufferView): TVoiceFrame | null {
  const bytes = bytesOf(message);
  if (bytes.byteLength < VOICE_HEADER_BYTES || !isVoiceFrame(bytes)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let hex = '';
  for (let i = 16; i < 32; i += 1) hex += (bytes[i] ?? 0).toString(16).padStart(2, '0');
  const speaker = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return {
    sequence: view.getUint32(4),
    timestamp: view.getFloat64(8),
    speaker,
    data: bytes.subarray(VOICE_HEADER_BYTES),
  };
}
