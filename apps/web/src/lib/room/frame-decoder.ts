// Turns media frames into pictures, chosen by codec, behind one seam: frames go in as they arrive, pictures come
// out through a callback with their server timestamps. 'h264' runs a WebCodecs VideoDecoder (the stream path);
// 'jpeg' frames are whole pictures (createImageBitmap, the CDP screencast fallback).
import type { TMediaCodecName, TMediaFrame } from '@rooms/api/room-protocol';
import { AVC_PROBE_CODEC, avcCodecString, findSps } from './h264';

export type TPicture = ImageBitmap | VideoFrame;
export type TVideoCodecName = Exclude<TMediaCodecName, 'opus'>;
/** Receives every decoded picture; it owns the picture from then on and must close it. */
export type TPictureOutput = (picture: TPicture, timestamp: number) => void;

export interface TDecoderStats {
  /** Frames not decoded: before the first keyframe, after an error, or to keep latency from building up. */
  skipped: number;
  errors: number;
  /** Pictures that came out. */
  decoded: number;
}

export interface TFrameDecoder {
  readonly codec: TVideoCodecName;
  decode(frame: TMediaFrame): void;
  stats(): TDecoderStats;
  close(): void;
}

/** One picture at a time, always the newest: a JPEG that arrives while another decodes replaces the waiting one. */
class JpegDecoder implements TFrameDecoder {
  readonly codec = 'jpeg' as const;
  private closed = false;
  private busy = false;
  private pending: TMediaFrame | null = null;
  private skipped = 0;
  private errors = 0;
  private decoded = 0;

  constructor(private readonly output: TPictureOutput) {}

  decode(frame: TMediaFrame): void {
    if (this.pending) this.skipped += 1;
    this.pending = frame;
    if (!this.busy) void this.drain();
  }

  stats(): TDecoderStats {
    return { skipped: this.skipped, errors: this.errors, decoded: this.decoded };
  }

  close(): void {
    this.closed = true;
    this.pending = null;
  }

  private async drain(): Promise<void> {
    this.busy = true;
    while (this.pending && !this.closed) {
      const frame = this.pending;
      this.pending = null;
      try {
        const blob = new Blob([frame.data as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' });
        const bitmap = await createImageBitmap(blob);
        if (this.closed) bitmap.close();
        else {
          this.decoded += 1;
          this.output(bitmap, frame.timestamp);
        }
      } catch {
        // One bad frame is skipped; the next one repaints the whole picture.
        this.errors += 1;
      }
    }
    this.busy = false;
  }
}

/**
 * How far the decoder may fall behind, in time, before the next frames are skipped until a keyframe: a decoder
 * that falls behind would otherwise add latency that never goes away. Skipping freezes the picture until the
 * next keyframe (up to 2 s), so a short stumble (a busy moment at 60 fps is a few pictures) is let through: the
 * decoder catches up on its own and the player shows only the newest of what comes out.
 */
const MAX_DECODE_BEHIND_MS = 120;
/** …and never fewer frames than this (a still page sends few pictures). */
const MAX_DECODE_QUEUE = 3;
/**
 * A joiner receives the latest keyframe and every frame since in one burst (up to one keyframe interval, 2 s),
 * all within moments: after a keyframe the queue may hold that many until the decoder has worked through it
 * (its queue back at MAX_DECODE_QUEUE), at most for a keyframe interval. On a busy machine the burst takes longer
 * to decode than to arrive; live frames meeting its tail must not be taken for a decoder falling behind.
 */
const MAX_CATCH_UP_QUEUE = 150;
const CATCH_UP_WINDOW_MS = 2000;
/** The burst itself arrives within this long after its keyframe; the queue is judged only after it. */
const BURST_ARRIVAL_MS = 250;

/**
 * WebCodecs H.264: Annex B access units (no `description`, so the decoder reads SPS/PPS in-band), configured from
 * the SPS of the first keyframe and again when it changes. It starts only at a keyframe, and after an error or
 * a skip it waits for the next one: a delta frame without its reference decodes to garbage.
 */
class H264Decoder implements TFrameDecoder {
  readonly codec = 'h264' as const;
  private decoder: VideoDecoder | null = null;
  private codecString: string | null = null;
  private waitingForKeyframe = true;
  /** Until when frames may meet the burst that follows a keyframe (performance.now()); 0 once caught up. */
  private catchUpUntil = 0;
  private burstUntil = 0;
  private closed = false;
  private skipped = 0;
  private errors = 0;
  private decoded = 0;
  /** Milliseconds between the stream's pictures, learned from their timestamps. */
  private interval = 1000 / 30;
  private lastTimestamp: number | null = null;

  constructor(private readonly output: TPictureOutput) {}

  decode(frame: TMediaFrame): void {
    if (this.closed) return;
    this.learnInterval(frame.timestamp);
    if (!frame.keyframe) {
      const queued = this.decoder?.decodeQueueSize ?? 0;
      const now = performance.now();
      const behind = Math.max(MAX_DECODE_QUEUE, Math.round(MAX_DECODE_BEHIND_MS / this.interval));
      // Caught up once the queue is short again after the burst: from then on a growing queue is a decoder
      // falling behind.
      if (queued <= behind && now >= this.burstUntil) this.catchUpUntil = 0;
      const limit = now < this.catchUpUntil ? MAX_CATCH_UP_QUEUE : behind;
      if (this.waitingForKeyframe || !this.decoder || queued > limit) {
        this.waitingForKeyframe = true;
        this.skipped += 1;
        return;
      }
    } else if (this.prepare(frame)) {
      const now = performance.now();
      this.burstUntil = now + BURST_ARRIVAL_MS;
      this.catchUpUntil = now + CATCH_UP_WINDOW_MS;
    } else {
      this.skipped += 1;
      return;
    }
    const decoder = this.decoder;
    if (!decoder) return;
    try {
      decoder.decode(
        new EncodedVideoChunk({
          type: frame.keyframe ? 'key' : 'delta',
          // Microseconds, whole: the server's millisecond timestamp comes back out of the VideoFrame.
          timestamp: Math.round(frame.timestamp * 1000),
          data: frame.data,
        }),
      );
      this.waitingForKeyframe = false;
    } catch {
      this.fail();
    }
  }

  stats(): TDecoderStats {
    return { skipped: this.skipped, errors: this.errors, decoded: this.decoded };
  }

  close(): void {
    this.closed = true;
    if (this.decoder && this.decoder.state !== 'closed') this.decoder.close();
    this.decoder = null;
  }

  private learnInterval(timestamp: number): void {
    const last = this.lastTimestamp;
    this.lastTimestamp = timestamp;
    if (last === null) return;
    const gap = timestamp - last;
    // A still page sends pictures seconds apart; those say nothing about the frame rate.
    if (gap > 0 && gap < 100) this.interval += (gap - this.interval) * 0.1;
  }

  /** A keyframe: (re)configure when the stream's codec string changed or the decoder fell behind or broke. */
  private prepare(frame: TMediaFrame): boolean {
    const sps = findSps(frame.data);
    let codec = this.codecString ?? AVC_PROBE_CODEC;
    if (sps) {
      try {
        codec = avcCodecString(sps);
      } catch {
        // A damaged SPS: keep what the last keyframe said.
      }
    } else if (!this.codecString) {
      // A keyframe without parameter sets cannot start a decoder.
      return false;
    }
    const usable = this.decoder && this.decoder.state === 'configured';
    const behind = Math.max(MAX_DECODE_QUEUE, Math.round(MAX_DECODE_BEHIND_MS / this.interval));
    if (usable && codec === this.codecString && (this.decoder?.decodeQueueSize ?? 0) <= behind) {
      return true;
    }
    if (!this.decoder || this.decoder.state === 'closed') {
      this.decoder = new VideoDecoder({
        output: (picture) => {
          if (this.closed) {
            picture.close();
            return;
          }
          this.decoded += 1;
          this.output(picture, picture.timestamp / 1000);
        },
        error: () => this.fail(),
      });
    } else {
      // Drops what is still queued: this keyframe replaces it.
      this.decoder.reset();
    }
    try {
      this.decoder.configure({ codec, optimizeForLatency: true });
      this.codecString = codec;
      return true;
    } catch {
      this.fail();
      return false;
    }
  }

  /** The decoder closes itself on an error; the next keyframe builds a new one. */
  private fail(): void {
    this.errors += 1;
    this.waitingForKeyframe = true;
    if (this.decoder && this.decoder.state !== 'closed') this.decoder.close();
    this.decoder = null;
  }
}

export class UnsupportedCodecError extends Error {
  override name = 'UnsupportedCodecError';
}

/** The decoder for a stream's picture codec; throws where this browser cannot decode it. */
export function createFrameDecoder(codec: TMediaCodecName, output: TPictureOutput): TFrameDecoder {
  switch (codec) {
    case 'jpeg':
      return new JpegDecoder(output);
    case 'h264':
      if (typeof VideoDecoder === 'undefined') {
        throw new UnsupportedCodecError('This browser cannot decode H.264 pictures');
      }
      return new H264Decoder(output);
    case 'opus':
      throw new UnsupportedCodecError('Audio is not a picture');
  }
}

/** Draws a picture onto the canvas, resizing the canvas to the picture's own pixels, and closes it unless kept. */
export function drawPicture(canvas: HTMLCanvasElement, picture: TPicture, close = true): void {
  const width = 'displayWidth' in picture ? picture.displayWidth : picture.width;
  const height = 'displayHeight' in picture ? picture.displayHeight : picture.height;
  if (canvas.width !== width) canvas.width = width;
  if (canvas.height !== height) canvas.height = height;
  canvas.getContext('2d')?.drawImage(picture, 0, 0);
  if (close) picture.close();
}
