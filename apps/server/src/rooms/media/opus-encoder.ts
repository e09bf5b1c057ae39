// The room's sound as Opus: ffmpeg records the room's null-sink monitor and encodes 20 ms packets in the
// low-delay mode (no SILK lookahead), 48 kHz stereo. PulseAudio is asked for 10 ms fragments, so a packet leaves
// about one packet after its sound was played.
import type { TEngineLogger } from '../engine/logger';
import type { TMediaChunk } from '../room-session';
import type { RoomProcessLauncher } from '../sandbox/room-sandbox';
import { EncoderSource } from './encoder-source';
import { OggOpusReader } from './ogg-opus-reader';

export const OPUS_BITRATE_KBPS = 96;
const SAMPLE_RATE = 48_000;
const PACKET_MS = 20;
/** 10 ms of 16-bit stereo at 48 kHz. */
const FRAGMENT_BYTES = 1920;

export interface TOpusOptions {
  /** The sound server, e.g. unix:/…/native. */
  server: string;
  source: string;
  logger?: TEngineLogger;
  roomId?: string;
}

export function opusEncoderArgs(options: TOpusOptions): string[] {
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-f',
    'pulse',
    '-server',
    options.server,
    '-fragment_size',
    String(FRAGMENT_BYTES),
    '-sample_rate',
    String(SAMPLE_RATE),
    '-channels',
    '2',
    '-i',
    options.source,
    '-c:a',
    'libopus',
    '-application',
    'lowdelay',
    '-frame_duration',
    String(PACKET_MS),
    '-b:a',
    `${OPUS_BITRATE_KBPS}k`,
    '-f',
    'ogg',
    // One page per packet (microseconds), written at once.
    '-page_duration',
    String(PACKET_MS * 1000),
    '-flush_packets',
    '1',
    'pipe:1',
  ];
}

/**
 * Places packets on the server's clock. A packet's arrival time is its sound's end plus a delay that varies
 * (scheduling, pipe); the sound itself runs on the sample clock. The least delayed packet fixes the mapping
 * (sample clock → performance.now()), which then creeps up by 2 ms per second so that a sample clock slower than
 * ours cannot pull timestamps ever further into the past. Timestamps are thus as steady as the samples and
 * comparable with the video's, which are stamped on arrival too.
 */
export class OpusTimeline {
  private offset = Number.POSITIVE_INFINITY;
  private lastEndSample: number | undefined;

  /** The packet's start time on performance.now(). */
  place(endSample: number, arrivedAt: number): number {
    const endMs = (endSample / SAMPLE_RATE) * 1000;
    if (this.lastEndSample !== undefined && Number.isFinite(this.offset)) {
      this.offset += ((endSample - this.lastEndSample) / SAMPLE_RATE) * 2;
    }
    this.lastEndSample = endSample;
    this.offset = Math.min(this.offset, arrivedAt - endMs);
    return this.offset + endMs - PACKET_MS;
  }
}

export function createOpusSource(options: TOpusOptions, launcher: RoomProcessLauncher): EncoderSource {
  return new EncoderSource({
    launcher,
    codec: 'opus',
    args: opusEncoderArgs(options),
    bitrateKbps: OPUS_BITRATE_KBPS,
    logger: options.logger,
    roomId: options.roomId,
    reader: (emit: (chunk: TMediaChunk) => void) => {
      const timeline = new OpusTimeline();
      return new OggOpusReader((packet) =>
        emit({
          codec: 'opus',
          // Every Opus packet decodes on its own.
          keyframe: true,
          timestamp: timeline.place(packet.endSample, performance.now()),
          data: packet.data,
        }),
      );
    },
  });
}
