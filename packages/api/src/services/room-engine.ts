// The room engine as the API sees it: it runs one Chromium per room on this server. apps/server implements it
// (playwright-core); procedures start, stop and query rooms through it and never touch a browser themselves.

import type { TRoomEnding } from '../room-protocol/system';

export type TRoomRuntimeState = 'stopped' | 'starting' | 'running' | 'stopping' | 'crashed';

/** Everything the engine needs to run a room, resolved from the room, its system image and its plan. */
export interface TRoomLaunchSpec {
  roomId: string;
  /** Viewport of the room's browser, e.g. 1280×720. */
  width: number;
  height: number;
  maxFrameRate: number;
  videoBitrateKbps: number;
  /** Where the browser opens (from the system image). */
  startUrl: string;
  /** Keep the browser profile (cookies, storage) across stop/start in a per-room directory. */
  keepData: boolean;
  /** Stop the room after this long with nobody connected; null keeps it running. */
  autoCloseMs: number | null;
  /**
   * The run's epoch from the fleet's placement (the room's count of starts). What a run writes on the room's
   * behalf (its kept profile, its state) carries it, so a run the room has moved on from cannot overwrite a newer
   * one's. 0 when the room was started outside the fleet (tests that drive an engine directly).
   */
  epoch?: number;
}

export interface TRoomStateChange {
  roomId: string;
  state: TRoomRuntimeState;
  /** Why it changed when the engine decided on its own (crash, auto-close). */
  reason?: 'crashed' | 'auto-close' | 'requested';
  /** What the members are told when someone stopped it (stop(roomId, ending)). */
  ending?: TRoomEnding;
}

/** What a running room is sending its participants right now, for the admin's room list. */
export interface TRoomMediaStats {
  /** 'h264' (encoders) or 'screencast' (CDP frames). */
  path: string;
  /** Frames per second sent over the last seconds. */
  fps: number;
  /** The picture's bitrate over the last seconds, kbit/s. */
  kbps: number;
  /** Times this run's picture stalled for a second or more while it was captured (0 where it cannot tell). */
  freezes: number;
}

export interface RoomEngine {
  /** Resolves once the browser runs. Throws AppError SERVER_FULL beyond capacity, ROOM_START_FAILED on failure. */
  start(spec: TRoomLaunchSpec): Promise<void>;
  /** Resolves once the browser is gone; stopping a stopped room is a no-op. */
  stop(roomId: string, ending?: TRoomEnding): Promise<void>;
  state(roomId: string): TRoomRuntimeState;
  /** Deletes the room's kept profile directory (when the room is deleted). */
  deleteData(roomId: string): Promise<void>;
  /** Rooms running here and the most this server allows. */
  capacity(): { running: number; max: number };
  onStateChange(listener: (change: TRoomStateChange) => void): () => void;
  /** The room's media path and frame rate; null when it does not run here. */
  mediaStats(roomId: string): TRoomMediaStats | null;
}
