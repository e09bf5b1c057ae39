// What a ChromiumRoomEngine is built with: the browser, the rooms' directory and capacity, the egress proxy, the
// media path, the sandbox, kept profiles and the warm pool.
import type { TRoomMediaMode } from '../../env';
import type { TEgressProxy } from '../egress/egress-proxy';
import type { ProfileStore } from '../profiles/profile-store';
import type { TRoomLogger } from '../room-logger';
import type { TRoomSandboxMode } from '../sandbox/sandbox-support';

/**
 * Starts the egress proxy the browsers go through (apps/server/src/rooms/egress); each sandboxed room run reaches
 * it on a unix socket of its own (a door, with its own connection cap), the only thing its network namespace can
 * reach.
 */
export type TEgressStarter = (options: {
  allow: string[];
}) => Promise<Pick<TEgressProxy, 'url' | 'openDoor' | 'failure' | 'close'>>;

export interface TRoomSandboxOptions {
  /** 'auto' (the default) isolates rooms where the machine allows it; see ../sandbox/sandbox-support.ts. */
  mode?: TRoomSandboxMode;
  /** The unprivileged user of room processes; 'room-sandbox' by default. */
  user?: string;
  /** The server's directories rooms must not see (the rooms' data directory is always hidden). */
  hide?: string[];
  limits?: { memoryMb: number; pids: number };
  /** The size of a keep-data room's own filesystem, which holds its kept profile (../profiles/room-volumes.ts). */
  profileDiskMb?: number;
}

export interface TChromiumRoomEngineOptions {
  chromiumPath: string;
  /** Kept profiles live in `<roomsDataDir>/<roomId>/profile`, fresh ones in `<roomsDataDir>/.fresh/`. */
  roomsDataDir: string;
  /**
   * Where kept profiles are saved between runs: this disk by default (../profiles/profile-store.ts), or object
   * storage, which restores them on whichever machine starts the room.
   */
  profiles?: ProfileStore;
  /** The most rooms this server runs at once. */
  capacity: number;
  egress: { start: TEgressStarter; allow: string[] };
  /** 'auto' (the default) takes H.264 when the media tools are installed; the others force a path. */
  media?: TRoomMediaMode;
  sandbox?: TRoomSandboxOptions;
  logger?: TRoomLogger;
  /** Chromium flags beyond the room's own, for measuring candidates (bench/room-memory.ts). */
  browserArgs?: string[];
  /**
   * Runs kept started ahead for the shape of the last room started (or the one told to warmFor); each holds a
   * capacity slot until a room takes it or needs the slot. 0 (the default here) keeps none.
   */
  warmPool?: number;
}

export type TMediaPath = 'h264' | 'screencast';
