// The room as one participant's page sees it, built from the server's messages (room-connection.ts) and read by
// React through useSyncExternalStore: who is here, who drives, chat, tabs, the picture's layer, and why the
// connection waits or ended.
import type {
  TBrowserTabInfo,
  TChatEntry,
  TControlChange,
  TMember,
  TRemovedMember,
  TRoomEnding,
  TRoomErrorCode,
  TServerMessageOf,
  TStreamLayerChoice,
} from '@rooms/api/room-protocol';
import { INITIAL_KNOCK, type TKnockState } from './knock-state';

/**
 * `reconnecting`: the connection dropped (network, server restart) and comes back with backoff; `waiting`: the
 * room's browser is not running (stopped, restarting) and the page joins again as soon as it runs.
 */
export type TConnectionStatus = 'connecting' | 'joined' | 'reconnecting' | 'waiting' | 'closed';

export interface TRoomSnapshot {
  status: TConnectionStatus;
  you: string | null;
  members: TMember[];
  /** Who the owner removed and may let back in (told to the owner's seats only). */
  removed: TRemovedMember[];
  controllerId: string | null;
  queue: string[];
  /** What made the last change of control and who (a driver who lost it is told why); null on joining. */
  controlChange: TControlChange | null;
  chat: TChatEntry[];
  tabs: TBrowserTabInfo[];
  stream: TServerMessageOf<'stream/config'> | null;
  /** The picture layer this participant receives now and why (stream/layer); null until the room says. */
  layer: TServerMessageOf<'stream/layer'> | null;
  /** This participant's choice of layer (kept in this browser), sent on every join and when it changes. */
  choice: TStreamLayerChoice;
  /** The answer to this participant's last find in the page. */
  found: { text: string; found: boolean } | null;
  /** Why the room is away while `waiting` (who stopped it, whether it is restarting); null when not known. */
  away: TRoomEnding | null;
  /** When the next attempt to reconnect starts (performance.now()), while `reconnecting`. */
  retryAt: number | null;
  /** Why the connection ended for good (kicked, banned, wrong password…), as the server's code and text. */
  ended: { code: TRoomErrorCode | 'CLOSED'; message: string } | null;
  knock: TKnockState;
}

/** Before the first message: also what the page shows while no connection exists yet. */
export const INITIAL_SNAPSHOT: TRoomSnapshot = {
  status: 'connecting',
  you: null,
  members: [],
  removed: [],
  controllerId: null,
  queue: [],
  controlChange: null,
  chat: [],
  tabs: [],
  stream: null,
  layer: null,
  choice: 'auto',
  found: null,
  away: null,
  retryAt: null,
  ended: null,
  knock: INITIAL_KNOCK,
};
