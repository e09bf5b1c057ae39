// Messages of the `stream/…` domain: what the binary media frames (./media-frame.ts) on the same socket carry.
import { z } from 'zod';

export const ZMediaCodec = z.enum(['jpeg', 'h264', 'opus']);

/**
 * The H.264 picture's layers, best first: the room's own size and bitrate, then smaller and cheaper ones for
 * viewers whose link cannot carry it. Each viewer gets one at a time (rooms/hub/viewer-link.ts picks it).
 */
export const ZStreamLayerName = z.enum(['high', 'medium', 'low']);
/** What a viewer asks for: 'auto' follows their link; a fixed layer stays whatever the link does. */
export const ZStreamLayerChoice = z.enum(['auto', 'high', 'medium', 'low']);
export const ZStreamLayer = z.object({
  name: ZStreamLayerName,
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  bitrateKbps: z.number().positive(),
});

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
  /** The picture's layers, best first; empty when the picture has one (the screencast). */
  layers: z.array(ZStreamLayer).max(8).default([]),
});

/** The layer this viewer receives from now on (sent when it changes), and why. */
export const ZStreamLayerState = z.object({
  type: z.literal('stream/layer'),
  layer: ZStreamLayerName,
  choice: ZStreamLayerChoice,
  /**
   * 'start': the first layer; 'chosen': the viewer's own choice; 'congested': the link could not carry the layer
   * above; 'probe': the link looked able to carry more; 'held': a probe upwards failed and the layer went back.
   */
  reason: z.enum(['start', 'chosen', 'congested', 'probe', 'held']),
});

/** What this socket was sent over the last interval; frames skipped because it could not keep up are counted. */
export const ZStreamStats = z.object({
  type: z.literal('stream/stats'),
  intervalMs: z.number(),
  framesSent: z.number().int(),
  framesSkipped: z.number().int(),
  bytesSent: z.number().int(),
});

// Client → server

/**
 * What this socket has received: every binary message's bytes, counted from the socket's start, and when (the
 * client's performance.now()). Sent about every 100 ms while media arrives; the server learns from it how fast the
 * link carries the picture and how much waits on the way, and picks the layer and paces the picture by it.
 */
export const ZStreamAck = z.object({
  type: z.literal('stream/ack'),
  bytes: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  t: z.number().nonnegative().optional(),
  /**
   * Milliseconds between the last of those bytes arriving and this ack leaving (the client gathers acks): the
   * server takes it off the ack's delay, which would otherwise look like queueing.
   */
  held: z.number().nonnegative().max(10_000).optional(),
});

/** The viewer's choice of layer (the room menu's Quality); kept by the client and sent again on every join. */
export const ZStreamChoose = z.object({ type: z.literal('stream/choose'), layer: ZStreamLayerChoice });

export type TMediaCodecName = z.infer<typeof ZMediaCodec>;
export type TStreamLayerName = z.infer<typeof ZStreamLayerName>;
export type TStreamLayerChoice = z.infer<typeof ZStreamLayerChoice>;
export type TStreamLayer = z.infer<typeof ZStreamLayer>;
