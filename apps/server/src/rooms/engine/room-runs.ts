// The engine's rooms: each one's state, its queue of operations, the capacity slot it holds and its run. State
// changes go out to the listeners from here, and only from here.
import type { TRoomRuntimeState, TRoomStateChange } from '@rooms/api';
import type { TRoomEnding } from '@rooms/api/room-protocol';
import type { TRoomLogger } from '../room-logger';
import type { TRun } from './room-run';

export interface TRoomEntry {
  roomId: string;
  state: TRoomRuntimeState;
  /** The tail of this room's operation queue. */
  queue: Promise<unknown>;
  /** Starts queued and not yet finished: each holds the room's capacity slot. */
  reserved: number;
  participants: number;
  run?: TRun;
  /** When its browser died lately (performance.now()): a room that keeps dying is left crashed (./crash-policy.ts). */
  crashes: number[];
}

const LIVE_STATES: ReadonlySet<TRoomRuntimeState> = new Set(['starting', 'running', 'stopping']);

export class RoomRuns {
  private readonly rooms = new Map<string, TRoomEntry>();
  private readonly listeners = new Set<(change: TRoomStateChange) => void>();

  constructor(private readonly logger: TRoomLogger) {}

  get(roomId: string): TRoomEntry | undefined {
    return this.rooms.get(roomId);
  }

  /** The room's entry, made (stopped) on first use. */
  entry(roomId: string): TRoomEntry {
    let entry = this.rooms.get(roomId);
    if (!entry) {
      entry = {
        roomId,
        state: 'stopped',
        queue: Promise.resolve(),
        reserved: 0,
        participants: 0,
        crashes: [],
      };
      this.rooms.set(roomId, entry);
    }
    return entry;
  }

  /** Forgets a room with nothing queued and nothing running. */
  forget(entry: TRoomEntry): void {
    if (entry.reserved === 0 && entry.state === 'stopped') this.rooms.delete(entry.roomId);
  }

  all(): IterableIterator<TRoomEntry> {
    return this.rooms.values();
  }

  roomIds(): string[] {
    return [...this.rooms.keys()];
  }

  /** Whether the room holds a capacity slot: a start queued, or a browser starting, running or stopping. */
  holdsSlot(entry: TRoomEntry): boolean {
    return entry.reserved > 0 || LIVE_STATES.has(entry.state);
  }

  /** The capacity slots the rooms hold. */
  occupied(): number {
    let count = 0;
    for (const entry of this.rooms.values()) if (this.holdsSlot(entry)) count++;
    return count;
  }

  /** Whether a room is starting (or queued to): warm runs then wait, so the room gets the CPU. */
  starting(): boolean {
    for (const entry of this.rooms.values()) {
      if (entry.reserved > 0 || entry.state === 'starting') return true;
    }
    return false;
  }

  /** Runs the operation after the room's earlier ones. */
  enqueue<T>(entry: TRoomEntry, operation: () => Promise<T>): Promise<T> {
    const result = entry.queue.then(operation);
    entry.queue = result.catch(() => {});
    return result;
  }

  onStateChange(listener: (change: TRoomStateChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setState(
    entry: TRoomEntry,
    state: TRoomRuntimeState,
    reason?: TRoomStateChange['reason'],
    ending?: TRoomEnding,
  ): void {
    if (entry.state === state) return;
    entry.state = state;
    const change: TRoomStateChange = { roomId: entry.roomId, state };
    if (reason) change.reason = reason;
    if (ending) change.ending = ending;
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        this.logger.error({ err: error, roomId: entry.roomId }, 'a room state listener failed');
      }
    }
  }
}
