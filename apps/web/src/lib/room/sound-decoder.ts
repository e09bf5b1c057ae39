// Opus packets → WebCodecs AudioDecoder → planar float samples with their server timestamps, for the sound
// worklet's jitter buffer. Runs where the packets are: in the media worker (media.worker.ts) or, without one, on
// the page (room-sound.ts). Configured from the first packet's TOC byte (mono or stereo).
import type { TMediaFrame } from '@rooms/api/room-protocol';
import { OPUS_SAMPLE_RATE, opusChannels } from './opus';

/** Decoded sound: one Float32Array per channel, and the server timestamp (ms) of its first sample frame. */
export type TSoundOutput = (timestamp: number, channels: Float32Array<ArrayBuffer>[]) => void;

/** Decoder errors without a single decoded packet after which this browser's Opus decoder counts as broken. */
const BROKEN_AFTER_ERRORS = 3;

export class SoundDecoder {
  private decoder: AudioDecoder | null = null;
  private channels: 1 | 2 | null = null;
  private errors = 0;
  private decoded = 0;
  private closed = false;
  /** Packets not decoded (the decoder was being rebuilt). */
  skipped = 0;

  constructor(
    private readonly output: TSoundOutput,
    /** Called once when the decoder keeps failing without ever decoding (a broken platform decoder). */
    private readonly broken: () => void,
  ) {}

  decode(frame: TMediaFrame): void {
    if (this.closed) return;
    this.channels ??= opusChannels(frame.data);
    if (!this.decoder) this.decoder = this.create(this.channels);
    else if (this.decoder.state === 'closed') {
      // It failed on an earlier packet: this one builds the next decoder.
      this.skipped += 1;
      this.decoder = this.create(this.channels);
      return;
    }
    this.decoder.decode(
      new EncodedAudioChunk({ type: 'key', timestamp: Math.round(frame.timestamp * 1000), data: frame.data }),
    );
  }

  close(): void {
    this.closed = true;
    if (this.decoder && this.decoder.state !== 'closed') this.decoder.close();
    this.decoder = null;
  }

  private create(channels: 1 | 2): AudioDecoder {
    const decoder = new AudioDecoder({
      output: (data) => {
        this.decoded += 1;
        try {
          const planes: Float32Array<ArrayBuffer>[] = [];
          for (let plane = 0; plane < data.numberOfChannels; plane += 1) {
            const samples = new Float32Array(data.numberOfFrames);
            data.copyTo(samples, { planeIndex: plane, format: 'f32-planar' });
            planes.push(samples);
          }
          this.output(data.timestamp / 1000, planes);
        } finally {
          data.close();
        }
      },
      error: () => {
        // The decoder closed itself; the next packet builds a new one, unless it never decoded anything.
        this.errors += 1;
        if (this.errors === BROKEN_AFTER_ERRORS && this.decoded === 0) this.broken();
      },
    });
    decoder.configure({ codec: 'opus', sampleRate: OPUS_SAMPLE_RATE, numberOfChannels: channels });
    return decoder;
  }
}
