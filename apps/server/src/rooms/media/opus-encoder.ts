// The room's sound as Opus: ffmpeg records the room's null-sink monitor and encodes 10 ms packets in the
// low-delay mode (no SILK lookahead), 48 kHz stereo. PulseAudio is asked for 5 ms fragments, so a packet leaves
// about one packet after its sound was played. Every participant's sound waits at least one packet length (a
// packet is stamped at its start and can leave only after its end), and a watcher's picture waits for the sound:
// 10 ms packets instead of 20 brought the sound's arrival from 39 to 20 ms after its timestamp (bench:e2e), for
// 50 more (smaller) messages a second to each participant.
import type { TRoomLogger } from '../room-logger';
import type { TMediaChunk } from '../room-session';
import type { RoomProcessLauncher } from '../sandbox/room-sandbox';
import { EncoderSource } from './encoder-source';
import { OggOpusReader } from './ogg-opus-reader';

export const OPUS_BITRATE_KBPS = 96;
/**
 * The sound of the picture's lowest layer, for links of about half a megabit: 32 kbit/s is still clear speech
 * and decent music in Opus, and 20 ms packets halve the per-packet framing, which at 10 ms would cost more than
 * the sound itself (TCP/IP and WebSocket headers on 100 packets a second, ~60 kbit/s).
 */
export const LOW_OPUS_BITRATE_KBPS = 32;
export const LOW_OPUS_PACKET_MS = 20;
const SAMPLE_RATE = 48_000;
const PACKET_MS = 10;
/** 5 ms of 16-bit stereo at 48 kHz. */
const FRAGMENT_BYTES = 960;

export interface TOpusOptions {
  /** The sound server, e.g. unix:/…/native. */
  server: string;
  source: string;
  /** 96 kbit/s in 10 ms packets unless said otherwise. */
  bitrateKbps?: number;
  packetMs?: number;
  logger?: TRoomLogger;
  roomId?: string;
}

export function opusEncoderArgs(options: TOpusOptions): string[] {
  const packetMs = options.packetMs ?? PACKET_MS;
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
    String(packetMs),
    '-b:a',
    `${options.bitrateKbps ?? OPUS_BITRATE_KBPS}k`,
    '-f',
    'ogg',
    // One page per packet (microseconds), written at once.
    '-page_duration',
    String(packetMs * 1000),
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

  /** The start time on performance.now() of a packet of `samples` ending at `endSample`. */
  place(endSample: number, samples: number, arrivedAt: number): number {
    const endMs = (endSample / SAMPLE_RATE) * 1000;
    if (this.lastEndSample !== undefined && Number.isFinite(this.offset)) {
      this.offset += ((endSample - this.lastEndSample) / SAMPLE_RATE) * 2;
    }
    this.lastEndSample = endSample;
    this.offset = Math.min(this.offset, arrivedAt - endMs);
    return this.offset + ((endSample - samples) / SAMPLE_RATE) * 1000;
  }
}

export function createOpusSource(options: TOpusOptions, launcher: RoomProcessLauncher): EncoderSource {
  return new EncoderSource({
    launcher,
    codec: 'opus',
    args: opusEncoderArgs(options),
    bitrateKbps: options.bitrateKbps ?? OPUS_BITRATE_KBPS,
    logger: options.logger,
    roomId: options.roomId,
    reader: (emit: (chunk: TMediaChunk) => void) => {
      const timeline = new OpusTimeline();
      return new OggOpusReader((packet) =>
        emit({
          codec: 'opus',
          // Every Opus packet decodes on its own.
          keyframe: true,
          timestamp: timeline.place(packet.endSample, packet.samples, performance.now()),
          data: packet.data,
        }),
      );
    },
  });
}
