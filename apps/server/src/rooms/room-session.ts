// The seam between a running room's browser and the people watching it. The engine (./engine) produces a
// RoomSession per running room; the WebSocket relay (../ws) fans its media out and feeds input back in.
// Media travels as timestamped chunks tagged with a codec, so the H.264 + Opus pipeline can replace the CDP
// screencast (JPEG) behind the same interface, and the client picks a decoder by codec.
import type { TRoomInput } from '@rooms/api/room-protocol';

export type TMediaCodec = 'jpeg' | 'h264' | 'opus';

export interface TMediaChunk {
  codec: TMediaCodec;
  /** A chunk a decoder can start from (every JPEG frame is one). */
  keyframe: boolean;
  /** Capture time, milliseconds on this server's monotonic clock (performance.now()). */
  timestamp: number;
  data: Uint8Array;
  /** Picture size, for video chunks. */
  width?: number;
  height?: number;
}

export interface MediaSource {
  readonly codec: TMediaCodec;
  /** Every chunk from now on; returns the unsubscribe function. */
  subscribe(listener: (chunk: TMediaChunk) => void): () => void;
  /** The newest keyframe, so a participant who joins mid-stream starts at once. */
  latestKeyframe(): TMediaChunk | undefined;
}

export interface TBrowserTab {
  id: string;
  url: string;
  title: string;
  active: boolean;
}

export interface RoomSession {
  readonly roomId: string;
  readonly viewport: { width: number; height: number };
  readonly video: MediaSource;
  /** Applies one input event of the current controller (the relay enforces who that is). */
  applyInput(input: TRoomInput): Promise<void>;
  navigate(url: string): Promise<void>;
  back(): Promise<void>;
  forward(): Promise<void>;
  reload(): Promise<void>;
  tabs(): TBrowserTab[];
  openTab(url?: string): Promise<void>;
  activateTab(tabId: string): Promise<void>;
  closeTab(tabId: string): Promise<void>;
  onTabsChanged(listener: (tabs: TBrowserTab[]) => void): () => void;
  /**
   * A small JPEG still of the active tab, at most `maxWidth` pixels wide, for the public square's thumbnails:
   * taken on request, never a second stream. Null when there is no tab to take it from.
   */
  snapshot(maxWidth: number): Promise<Uint8Array | null>;
}
