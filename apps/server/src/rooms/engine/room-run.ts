// A room run: the processes one room runs on (sandbox, display and sound, browser), started by ./run-launcher.ts
// for a room or ahead of one (./warm-handoff.ts), and what the engine keeps about them while they serve it.
import type { TRoomLaunchSpec } from '@rooms/api';
import type { TEgressDoor } from '../egress/egress-proxy';
import type { RoomMedia } from '../media/room-media';
import type { TProfileRun, TProfileSave } from '../profiles/profile-store';
import type { RoomSandbox } from '../sandbox/room-sandbox';
import type { AutoCloseTimer } from './auto-close';
import type { ChromiumRoomSession } from './chromium-room-session';
import type { RoomBrowser } from './room-browser';

export type TRoomPart = 'browser' | 'display' | 'sound';

/** A room's processes: sandbox, display and sound, browser; and while it serves a room, the room's session. */
export interface TRun {
  /** Who it is in the log: the room's id, or the warm run's own until a room takes it. */
  id: string;
  /** The room it serves; unset while it waits in the warm pool. */
  spec?: TRoomLaunchSpec;
  profileDir: string;
  /** A fresh profile is deleted when the browser stops; a kept one stays for the next start. */
  fresh: boolean;
  /** The room and run a kept profile is saved for; unset for a fresh profile. */
  profile?: TProfileRun;
  /** Saves the kept profile every so often while the room runs. */
  checkpoints?: NodeJS.Timeout;
  /** The profile save under way, if any: saves of one run never overlap, and the stop's comes last. */
  saving?: Promise<TProfileSave | undefined>;
  /** The copy of the live profile in progress, with the browser held still; the teardown waits for it. */
  holding?: Promise<void>;
  /** Set when the teardown begins: no copy of the live profile starts after it. */
  closing?: boolean;
  sandbox?: RoomSandbox;
  /** Where the run's browser saves downloads until the controller fetches them (./downloads-dir.ts). */
  downloadsDir?: string;
  /** The run's own way to the egress proxy (sandboxed runs), in a directory of its own. */
  egressDoor?: TEgressDoor;
  media?: RoomMedia;
  browser?: RoomBrowser;
  session?: ChromiumRoomSession;
  autoClose?: AutoCloseTimer;
  /** How long its parts took to start, in ms (the log says where a cold start's time goes). */
  startedIn?: { sandbox: number; media: number; browser: number };
  /** The part that ended by itself, once one did. */
  exited?: TRoomPart;
  /** Told when a part ends by itself: the warm pool while the run waits there, then the room's crash handling. */
  onExit?: (part: TRoomPart) => void;
}
