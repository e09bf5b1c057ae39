// Messages of the `stream/…` domain: what the binary media frames (./media-frame.ts) on the same socket carry.
import { z } from 'zod';

export const ZMediaCodec = z.enum(['jpeg', 'h264', 'opus']);

// Server → client

/** Sent to each joiner before its first frame, and again when the picture changes. */
export const ZStreamConfig = z.object({
  type: z.literal('stream/config'),
  /** The room browser's viewport in CSS pixels; input coordinates are normalised to it. */
  viewport: z.object({ width: z.number().int().positive(), height: z.number().int().positive() }),
  /** The picture's codec for this participant: 'h264' (WebCodecs path) or 'jpeg' (CDP screencast fallback). */
  codec: ZMediaCodec,
  /**
   * The sound's codec, or null when this participant gets no sound: its browser does not decode Opus, or the room
   * has no sound (the server lacks the media pipeline). A browser that decodes Opus but not H.264 gets the JPEG
   * picture with sound.
   */
  audio: ZMediaCodec.nullable().default(null),
  /** The room's target frame rate, when the engine tells it. */
  fps: z.number().positive().nullable(),
  /** The room's video bitrate cap in kbit/s, when the picture is encoded to one (h264). */
  bitrateKbps: z.number().positive().nullable().default(null),
});

/** What this socket was sent over the last interval; frames skipped because it could not keep up are counted. */
export const ZStreamStats = z.object({
  type: z.literal('stream/stats'),
  intervalMs: z.number(),
  framesSent: z.number().int(),
  framesSkipped: z.number().int(),
  bytesSent: z.number().int(),
});

export type TMediaCodecName = z.infer<typeof ZMediaCodec>;
