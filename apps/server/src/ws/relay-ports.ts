// What the relay needs from the rest of the server, as two small ports: the room's data (who owns it, how many
// may connect, who is banned, what was said) and the running room's live session (from the engine). The defaults read the
// database and the engine; a test or another engine plugs in its own through RoomRelay.use().
import type { TRoomEnding } from '@rooms/api/room-protocol';
import type { TChatAuthor, TChatRecord } from '../rooms/hub/chat/chat-log';
import type { RoomSession } from '../rooms/room-session';

export interface TRelayRoom {
  id: string;
  ownerId: string;
  /** The owner's account name: nobody else may join under it (RoomHub). */
  ownerName: string;
  maxConnections: number;
  /** The share password; null when the room has none. */
  password: string | null;
  /** Listed in the public square: anyone may enter without the password. */
  isPublic: boolean;
  /** The knock link's token (knocking on); null or absent while knocking is off. */
  knockToken?: string | null;
  /** The room's frame-rate cap, told to clients in stream/config. */
  maxFrameRate: number | null;
  /** The largest file the controller may hand the room (its owner's plan); the free plan's when unset. */
  fileInMaxBytes?: number;
}

export interface RoomDirectory {
  /** The room, or null when no room has this id. */
  find(roomId: string): Promise<TRelayRoom | null>;
  /**
   * The rooms' bans where every process sees them (the database). Without it (a test's own directory) a ban
   * lives in its hub's memory only, for that hub's sockets and this server's tickets.
   */
  bans?: RoomBanBook;
  /** The people owners removed, likewise: without it, a removal lives in its hub's memory only. */
  removals?: RoomRemovalBook;
  /** Where the rooms' chat outlives their runs (the database); without it, chat lasts as long as the hub. */
  chat?: RoomChatBook;
}

/** What keeps one seat of a banned person out: its account, its guest browser and its address. */
export interface TBanMarks {
  userId: string | null;
  guestId: string | null;
  ip: string | null;
}

export interface RoomBanBook {
  /** Stores the marks of a person the owner just banned from the room (until the room stops). */
  record(roomId: string, marks: readonly TBanMarks[]): Promise<void>;
  /** The room's bans in force, whichever process made them. */
  inForce(roomId: string): Promise<TBanMarks[]>;
}

/** A person the owner removed from the room: kept out by account and by every browser they sat in. */
export interface TRemoval {
  id: string;
  /** The name they sat under, for the owner's list. */
  nickname: string;
  userId: string | null;
  guestIds: string[];
  /** Epoch milliseconds. */
  at: number;
}

export interface RoomRemovalBook {
  /** Stores a removal the owner just made (it lasts until the room stops). */
  record(roomId: string, removal: TRemoval): Promise<void>;
  /** Forgets a removal: the owner let the person back in. */
  lift(roomId: string, removalId: string): Promise<void>;
  /** The room's removals in force, whichever process made them. */
  inForce(roomId: string): Promise<TRemoval[]>;
}

export interface RoomChatBook {
  /** The room's latest messages (as many as a joiner is shown), oldest first. */
  recent(roomId: string): Promise<TChatRecord[]>;
  /** Stores messages in the order given, keeping only the room's latest. */
  append(roomId: string, records: readonly TChatRecord[]): Promise<void>;
  /** Deletes the room's messages written by these authors (a ban). */
  forget(roomId: string, authors: readonly TChatAuthor[]): Promise<void>;
}

export interface RoomLink {
  /** The running room's session on this server, or undefined when it is not running here. */
  session(roomId: string): RoomSession | undefined;
  /** How many participants are connected, on every change (the engine's auto-close counts on it). */
  participantsChanged(roomId: string, count: number): void;
  /** When given, the relay closes a room's sockets as soon as its browser goes away, telling members why. */
  onSessionEnded?(listener: (roomId: string, ending: TRoomEnding) => void): () => void;
}
