// The picture's ladder: the sizes and bitrates a room encodes its one display at, best first. The top layer is
// the room's own (its plan's size and bitrate); below it a medium layer at two thirds of the size (about half the
// pixels) and a low one at half the size (a quarter of the pixels). The low layer is capped so that it and its
// sound fit a 0.5 Mbit/s link, the medium one so that it fits a link of about 1.5 Mbit/s: a ladder that only
// scaled the room's bitrate would leave a Pro room's viewers on slow links with nothing that fits.
import type { TStreamLayerName } from '@rooms/api/room-protocol';

export interface TLayerShape {
  name: TStreamLayerName;
  width: number;
  height: number;
  bitrateKbps: number;
  /** Seconds between keyframes: a viewer switching to this layer waits for its next one. */
  keyframeIntervalS: number;
}

const MEDIUM_SCALE = 2 / 3;
const LOW_SCALE = 1 / 2;
const MEDIUM_MAX_KBPS = 1200;
const LOW_MAX_KBPS = 350;
/** The top layer's keyframes are the largest; further apart, they cost less of its bitrate. */
const TOP_KEYFRAME_S = 2;
/**
 * ffmpeg's command line cannot be asked for a keyframe on demand, so a switch to a lower layer (the link is
 * struggling: it should happen soon) waits at most this long.
 */
const LOWER_KEYFRAME_S = 1;
/** Below this a layer is no longer worth its encoder. */
const MIN_WIDTH = 320;
const MIN_KBPS = 100;

/** x264 wants even sizes for 4:2:0. */
function even(value: number): number {
  return Math.max(2, Math.round(value / 2) * 2);
}

export function layerLadder(room: { width: number; height: number; bitrateKbps: number }): TLayerShape[] {
  const ladder: TLayerShape[] = [
    {
      name: 'high',
      width: room.width,
      height: room.height,
      bitrateKbps: room.bitrateKbps,
      keyframeIntervalS: TOP_KEYFRAME_S,
    },
  ];
  const lower: [TStreamLayerName, number, number, number][] = [
    ['medium', MEDIUM_SCALE, 0.45, MEDIUM_MAX_KBPS],
    ['low', LOW_SCALE, 0.2, LOW_MAX_KBPS],
  ];
  for (const [name, scale, share, cap] of lower) {
    const width = even(room.width * scale);
    const bitrateKbps = Math.min(cap, Math.round(room.bitrateKbps * share));
    const above = ladder.at(-1)!;
    if (width < MIN_WIDTH || bitrateKbps < MIN_KBPS || bitrateKbps >= above.bitrateKbps) continue;
    ladder.push({
      name,
      width,
      height: even(room.height * scale),
      bitrateKbps,
      keyframeIntervalS: LOWER_KEYFRAME_S,
    });
  }
  return ladder;
}
