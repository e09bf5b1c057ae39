// The room's picture as H.264: ffmpeg grabs the room's X display and encodes it for live viewing.
// - Main profile, no B-frames: every browser's WebCodecs decodes it, and frames leave in display order.
// - superfast + zerolatency: no lookahead, no frame-threading delay. Chosen by bench:quality (bench/README.md,
//   "Picture per bit"): against ultrafast baseline it reaches the same picture on the hard clip with about a third
//   fewer bits (SSIM 0.952 at 1.5 Mbit/s, where ultrafast baseline needs more than 2), for ~2 ms more per 720p
//   frame on one core.
// - A quantiser floor (qmin 20): without it a still page keeps spending the whole cap on sharpening text that does
//   not change; with it a still page costs about a third of the cap and looks the same.
// - The room's bitrate as a cap (maxrate) with a half-second VBV buffer, so a burst cannot queue for long on the
//   viewer's link; the room's frame rate; a keyframe at least every 2 s (and no extra ones on scene cuts, which
//   would make the bitrate jump), so a viewer who skipped frames is never far from a fresh start.
// - One thread up to 720p (sliced threads above): on a small server several rooms share the cores anyway.

import type { TRoomLogger } from '../room-logger';
import type { TMediaChunk } from '../room-session';
import type { RoomProcessLauncher } from '../sandbox/room-sandbox';
import { EncoderSource } from './encoder-source';
import { FlvH264Reader } from './flv-h264-reader';

export interface TH264Options {
  display: string;
  /** The display's size, grabbed whole. */
  width: number;
  height: number;
  /** The picture's size when it is smaller than the display (a lower layer): scaled before encoding. */
  output?: { width: number; height: number };
  fps: number;
  bitrateKbps: number;
  /** Seconds between keyframes at most. */
  keyframeIntervalS?: number;
  logger?: TRoomLogger;
  roomId?: string;
}

export function h264EncoderArgs(options: TH264Options): string[] {
  const { width, height, fps, bitrateKbps } = options;
  const output = options.output ?? { width, height };
  const scaled = output.width !== width || output.height !== height;
  const gop = Math.max(1, Math.round(fps * (options.keyframeIntervalS ?? 2)));
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-fflags',
    'nobuffer',
    '-f',
    'x11grab',
    '-draw_mouse',
    '0',
    '-framerate',
    String(fps),
    '-video_size',
    `${width}x${height}`,
    '-i',
    `${options.display}.0`,
    ...(scaled ? ['-vf', `scale=${output.width}:${output.height}:flags=bilinear`] : []),
    '-c:v',
    'libx264',
    '-profile:v',
    'main',
    '-preset',
    'superfast',
    '-tune',
    'zerolatency',
    '-threads',
    output.width * output.height > 1280 * 720 ? '2' : '1',
    '-pix_fmt',
    'yuv420p',
    '-b:v',
    `${bitrateKbps}k`,
    '-maxrate',
    `${bitrateKbps}k`,
    '-bufsize',
    `${Math.round(bitrateKbps / 2)}k`,
    '-g',
    String(gop),
    '-bf',
    '0',
    '-sc_threshold',
    '0',
    '-qmin',
    '20',
    '-flush_packets',
    '1',
    '-flvflags',
    'no_duration_filesize',
    '-f',
    'flv',
    'pipe:1',
  ];
}

export function createH264Source(options: TH264Options, launcher: RoomProcessLauncher): EncoderSource {
  const output = options.output ?? { width: options.width, height: options.height };
  return new EncoderSource({
    launcher,
    codec: 'h264',
    args: h264EncoderArgs(options),
    bitrateKbps: options.bitrateKbps,
    logger: options.logger,
    roomId: options.roomId,
    // Stamped when the whole access unit has arrived: the moment the relay can send it.
    reader: (emit: (chunk: TMediaChunk) => void) =>
      new FlvH264Reader((unit) =>
        emit({
          codec: 'h264',
          keyframe: unit.keyframe,
          timestamp: performance.now(),
          data: unit.data,
          width: output.width,
          height: output.height,
        }),
      ),
  });
}
