import { describe, expect, it } from 'vitest';
import { encodeMediaFrame, isPaddingFrame } from './media-frame';
import { ZClientMessage } from './messages';
import {
  decodeVoiceFrame,
  encodeVoiceFrame,
  isVoiceFrame,
  VOICE_HEADER_BYTES,
  writeVoiceSpeaker,
} from './voice';

describe('voice frames', () => {
  it('carry the sequence, the timestamp and the packet, with the speaker the server writes in', () => {
    const data = new Uint8Array([0xf8, 1, 2, 3]);
    const frame = encodeVoiceFrame({ sequence: 7, timestamp: 1234.5, data });
    expect(frame.byteLength).toBe(VOICE_HEADER_BYTES + 4);
    expect(decodeVoiceFrame(frame)).toEqual({
      sequence: 7,
      timestamp: 1234.5,
      speaker: '00000000-0000-0000-0000-000000000000',
      data,
    });
    const speaker = '3f2b8c1e-9a4d-4e2f-8b7c-0123456789ab';
    writeVoiceSpeaker(frame, speaker);
    expect(decodeVoiceFrame(frame.buffer)?.speaker).toBe(speaker);
  });

  it('are told apart from the picture, the room sound and padding by their header', () => {
    const voice = encodeVoiceFrame({ sequence: 0, timestamp: 0, data: new Uint8Array(1) });
    const sound = encodeMediaFrame({
      codec: 'opus',
      keyframe: true,
      timestamp: 0,
      width: 0,
      height: 0,
      data: new Uint8Array(1),
    });
    expect(isVoiceFrame(voice)).toBe(true);
    expect(isPaddingFrame(voice)).toBe(false);
    expect(isVoiceFrame(sound)).toBe(false);
    expect(decodeVoiceFrame(sound)).toBeNull();
    expect(decodeVoiceFrame(voice.subarray(0, VOICE_HEADER_BYTES - 1))).toBeNull();
  });

  it('are switched on and off by messages the room checks', () => {
    expect(ZClientMessage.safeParse({ type: 'voice/talk', talking: true }).success).toBe(true);
    expect(ZClientMessage.safeParse({ type: 'voice/enable', enabled: 'yes' }).success).toBe(false);
    expect(ZClientMessage.safeParse({ type: 'voice/mute', memberId: 'm1', muted: true }).success).toBe(true);
  });
});
