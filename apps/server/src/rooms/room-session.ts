// The seam between a running room's browser and the people watching it. The engine (./engine) produces a
// RoomSession per running room; the WebSocket relay (../ws) fans its media out and feeds input back in.
// Media travels as timestamped chunks tagged with a codec: H.264 + Opus when the server has the media pipeline
// (./media), the CDP screencast (JPEG) otherwise or for participants who cannot decode H.264; the client picks a
// decoder by codec.
import type { TRoomInput, TStreamLayerName } from '@rooms/api/room-protocol';

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
  /** The encoder's bitrate cap in kbit/s, for encoded sources (told to participants). */
  readonly bitrateKbps?: number;
  /** Every chunk from now on; returns the unsubscribe function. */
  subscribe(listener: (chunk: TMediaChunk) => void): () => void;
  /** The newest keyframe, so a participant who joins mid-stream starts at once. */
  latestKeyframe(): TMediaChunk | undefined;
  /**
   * For codecs whose frames build on earlier ones (H.264): the newest keyframe and every chunk since, so a joiner
   * decodes up to the present at once. Without it a joiner starts from latestKeyframe() alone.
   */
  sinceKeyframe?(): readonly TMediaChunk[];
  /** Frames (or packets) emitted per second over the last seconds. */
  rate?(): number;
  /** Kilobits per second emitted over the last seconds. */
  kbps?(): number;
  /**
   * Times the picture stalled for its viewers (a second or more without a frame while capturing), for sources that
   * emit at a constant rate; a source that sends only changes (the screencast) cannot tell and leaves it out.
   */
  freezes?(): number;
}

/** One rung of the picture's ladder: the same display, encoded at another size and bitrate. */
export interface TPictureLayer {
  name: TStreamLayerName;
  width: number;
  height: number;
  bitrateKbps: number;
  source: MediaSource;
  /** The sound viewers of this layer hear: the room's `audio`, or a cheaper one for the lowest layer. */
  audio?: MediaSource;
}

/**
 * The session's picture as a ladder: its layers, or the picture alone as the one ('high') layer at the room's size.
 */
export function pictureLadder(session: RoomSession): readonly TPictureLayer[] {
  if (session.layers?.length) return session.layers;
  return [
    {
      name: 'high',
      ...session.viewport,
      bitrateKbps: session.video.bitrateKbps ?? 0,
      source: session.video,
      audio: session.audio,
    },
  ];
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
  /** The room's sound (Opus), when the room has the media pipeline. */
  readonly audio?: MediaSource;
  /**
   * The H.264 picture's layers, best first: `video` itself, then smaller ones, each encoded only while some viewer
   * takes it. Absent (or one layer) when the picture is not layered.
   */
  readonly layers?: readonly TPictureLayer[];
  /**
   * The JPEG screencast for participants who cannot decode `video` when that is H.264; it captures only while
   * someone subscribes. Absent when `video` is the screencast itself.
   */
  readonly fallbackVideo?: MediaSource;
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
  /** Selects and scrolls to the next (or previous) match of `text` in the active tab; whether there was one. */
  find(text: string, backwards: boolean): Promise<boolean>;
  onTabsChanged(listener: (tabs: TBrowserTab[]) => void): () => void;
  /**
   * A small JPEG still of the active tab, at most `maxWidth` pixels wide, for the public square's thumbnails:
   * taken on request, never a second stream. Null when there is no tab to take it from.
   */
  snapshot(maxWidth: number): Promise<Uint8Array | null>;
  /**
   * What leaves the room for its controller: a download the browser finished (or refused), text copied in the
   * page. Absent where the browser cannot hand anything out.
   */
  onFilesOut?(listener: (event: TRoomFileOut) => void): () => void;
  /** Files from the controller's computer into the room's pages (./hub/files-in). Absent where it cannot take them. */
  readonly filesIn?: TRoomFilesIn;
}

/** A page of the room opened a file chooser, intercepted: no dialog shows on the room's display. */
export interface TFileRequest {
  requestId: string;
  multiple: boolean;
}

/** A file being written into the room's own storage. */
export interface TFileInWriter {
  readonly path: string;
  write(bytes: Uint8Array): Promise<void>;
  close(): Promise<void>;
  /** Deletes what was written (the upload failed or was cancelled). */
  discard(): Promise<void>;
}

/** The room browser's side of files in (./engine/files-in.ts). */
export interface TRoomFilesIn {
  onRequest(listener: (request: TFileRequest) => void): () => void;
  /** Whether the page's chooser of that request still waits for a file. */
  isPending(requestId: string): boolean;
  /** The controller declined: the chooser gets no file. */
  decline(requestId: string): void;
  /** A new file named `name` (cleaned already) in the room's own storage. */
  create(name: string): Promise<TFileInWriter>;
  /** Gives the file to the request's chooser; false when it is gone. */
  give(requestId: string, path: string): Promise<boolean>;
  /** Drops the file on the active tab at (x, y), 0..1 of the picture. */
  drop(path: string, x: number, y: number): Promise<void>;
}

/** A file or text leaving the room's browser; the hub hands it to the controller alone (./hub/room-files-out.ts). */
export type TRoomFileOut =
  | {
      kind: 'download';
      /** Where the finished file lies on this server, in the room's own downloads directory. */
      path: string;
      /** Sanitised (./engine/download-name.ts). */
      name: string;
      size: number;
      mime: string;
    }
  | { kind: 'download-refused'; name: string; reason: 'too-large' | 'failed' }
  | { kind: 'copied'; text: string; truncated: boolean };
