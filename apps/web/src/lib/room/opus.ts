// What a bare Opus packet says about itself (RFC 6716 §3.1): its TOC byte tells mono or stereo, so the decoder
// is configured from the first packet whatever the room sends.

/** 2 when the packet's TOC byte has the stereo flag, else 1. */
export function opusChannels(packet: Uint8Array): 1 | 2 {
  return ((packet[0] ?? 0) & 0b0000_0100) !== 0 ? 2 : 1;
}

export const OPUS_SAMPLE_RATE = 48_000;
