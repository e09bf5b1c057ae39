// Which codecs this browser decodes, for `member/join`: the H.264 + Opus stream needs WebCodecs (a secure
// context) and an AudioWorklet for the sound; every browser shows the JPEG screencast. A codec the probe accepts
// but that then never decodes (a broken platform decoder) can be refused at run time: connections that asked
// the probe hear of it and join again without it, which puts them on the fallback.
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

let probed: Promise<TMediaCodecName[]> | null = null;
const refused = new Set<TMediaCodecName>();
const listeners = new Set<() => void>();

/** ['h264', 'opus', 'jpeg'] where WebCodecs can play the stream, ['jpeg'] where it cannot. Probed once. */
export async function detectDecoders(): Promise<TMediaCodecName[]> {
  probed ??= Promise.all([supportsH264().catch(() => false), supportsOpus().catch(() => false)]).then(
    ([video, audio]): TMediaCodecName[] =>
      video ? (audio ? ['h264', 'opus', 'jpeg'] : ['h264', 'jpeg']) : ['jpeg'],
  );
  const codecs = await probed;
  return codecs.filter((codec) => !refused.has(codec));
}

/** This browser cannot decode `codec` after all (it never produced anything); never 'jpeg'. */
export function refuseDecoder(codec: Exclude<TMediaCodecName, 'jpeg'>): void {
  if (refused.has(codec)) return;
  refused.add(codec);
  for (const listener of listeners) listener();
}

export function onDecodersChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
