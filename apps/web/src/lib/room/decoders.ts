// Which codecs this browser decodes, for `member/join`: the H.264 + Opus stream needs WebCodecs (a secure
// context) and an AudioWorklet for the sound; every browser shows the JPEG screencast.
import type { TMediaCodecName } from '@rooms/api/room-protocol';
import { AVC_PROBE_CODEC } from './h264';
import { OPUS_SAMPLE_RATE } from './opus';

async function supportsH264(): Promise<boolean> {
  if (typeof VideoDecoder === 'undefined') return false;
  const answer = await VideoDecoder.isConfigSupported({ codec: AVC_PROBE_CODEC, optimizeForLatency: true });
  return answer.supported === true;
}

async function supportsOpus(): Promise<boolean> {
  if (typeof AudioDecoder === 'undefined' || typeof AudioWorkletNode === 'undefined') return false;
  const answer = await AudioDecoder.isConfigSupported({
    codec: 'opus',
    sampleRate: OPUS_SAMPLE_RATE,
    numberOfChannels: 2,
  });
  return answer.supported === true;
}

let detected: Promise<TMediaCodecName[]> | null = null;

/** ['h264', 'opus', 'jpeg'] where WebCodecs can play the stream, ['jpeg'] where it cannot. Asked once. */
export function detectDecoders(): Promise<TMediaCodecName[]> {
  detected ??= Promise.all([supportsH264().catch(() => false), supportsOpus().catch(() => false)]).then(
    ([video, audio]): TMediaCodecName[] =>
      video ? (audio ? ['h264', 'opus', 'jpeg'] : ['h264', 'jpeg']) : ['jpeg'],
  );
  return detected;
}
