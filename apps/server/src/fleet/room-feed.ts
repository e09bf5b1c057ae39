// The room feed: how an agent sends a room's media to a gateway once, whatever the number of viewers behind it.
// A gateway opens one feed per room it has H.264 viewers of (/fleet/rooms/:roomId/feed, signed with its credential); the agent
// says which streams the room has (feed/hello: the picture's layers and their sound), and sends each stream the
// gateway subscribes to as binary messages: the stream's one-byte id, then the media frame as a participant
// would get it. The gateway fans each stream out to its own viewers, with the per-viewer layer choice and pacing
// of rooms/hub/viewer-stream.ts, so 100 viewers over two gateways cost the agent two copies of what they watch.
import { ZStreamLayerName } from '@rooms/api/room-protocol';
import { z } from 'zod';

export const ROOM_FEED_PATH = '/fleet/rooms/:roomId/feed';

/** Told by a gateway forwarding a participant's socket: the gateway sends this participant's H.264 media itself. */
export const MEDIA_BY_GATEWAY_HEADER = 'x-room-media-by-gateway';

const ZFeedStream = z.object({
  id: z.number().int().min(0).max(255),
  codec: z.enum(['h264', 'opus']),
  bitrateKbps: z.number().positive().nullable(),
});

export const ZFeedHello = z.object({
  type: z.literal('feed/hello'),
  viewport: z.object({ width: z.number().int().positive(), height: z.number().int().positive() }),
  streams: z.array(ZFeedStream).max(16),
  /** Best first; `video` and `audio` name streams. */
  layers: z
    .array(
      z.object({
        name: ZStreamLayerName,
        width: z.number().int().positive(),
        height: z.number().int().positive(),
        bitrateKbps: z.number().positive(),
        video: z.number().int(),
        audio: z.number().int().nullable(),
      }),
    )
    .min(1)
    .max(8),
  /** The room's main sound, for viewers whose layer has none of its own. */
  audio: z.number().int().nullable(),
});

export const ZFeedRequest = z.object({
  type: z.enum(['feed/subscribe', 'feed/unsubscribe']),
  stream: z.number().int().min(0).max(255),
});

export type TFeedHello = z.infer<typeof ZFeedHello>;
export type TFeedRequest = z.infer<typeof ZFeedRequest>;

/** A media frame of stream `id` as it travels on the feed. */
export function tagFeedFrame(id: number, frame: Uint8Array): Buffer {
  const tagged = Buffer.allocUnsafe(frame.byteLength + 1);
  tagged[0] = id;
  tagged.set(frame, 1);
  return tagged;
}

export function untagFeedFrame(message: Buffer): { id: number; frame: Buffer } {
  return { id: message[0] ?? 0, frame: message.subarray(1) };
}
