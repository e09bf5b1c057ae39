// The agent's half of the room slots (the GameServer's `rooms` Counter, allocation-spec.ts has the control plane's):
// an allocation adds one to the count as it promises the agent a room; the agent gives the slot back when the room
// ends, or when the promised room never comes (its start went elsewhere, failed, or never happened), so the count
// is what runs here plus what is on its way. The agent reconciles on a timer instead of on each event: the count
// moves under it (allocations by the control plane), and relative changes (countDiff) never undo one of those.
//
// An agent with rooms stays Allocated (Agones scales only Ready GameServers down); an agent that has been empty for
// a while goes back to Ready, so the Fleet's buffer counts its slots and the autoscaler may take it away.

import type { AgonesSdk, TAgonesLifecycle } from './agones-sdk';
import { ROOMS_COUNTER } from './allocation-spec';

export interface TSlotObservation {
  now: number;
  /** The Counter's count as the sidecar reads it. */
  count: number;
  /** Rooms running here (the fleet's runs). */
  rooms: number;
  /** The GameServer's state (Ready, Allocated…). */
  state: string | undefined;
}

export type TSlotAction = { kind: 'count'; diff: number } | { kind: 'allocate' } | { kind: 'ready' };

export interface TSlotLedgerOptions {
  /** How long a promised room may take to arrive before its slot is given back. */
  unclaimedMs: number;
  /** How long an Allocated agent stays empty before it goes back to Ready. */
  idleMs: number;
}

/**
 * The bookkeeping, without I/O: each observation answers what to change. Promised rooms are matched to arriving
 * rooms oldest first, so a steady stream of starts never looks like one promise left unkept.
 */
export class RoomSlotLedger {
  /** When each promised room not yet running here was promised. */
  private readonly promised: number[] = [];
  /** The count after this ledger's own last change: anything above it was added by allocations since. */
  private lastCount: number | undefined;
  private lastRooms = 0;
  private idleSince: number | undefined;

  constructor(private readonly options: TSlotLedgerOptions) {}

  step(observed: TSlotObservation): TSlotAction[] {
    const actions: TSlotAction[] = [];
    // The first reading: whatever is above the running rooms was promised just now, as far as this agent knows.
    const promisedNow = Math.max(0, observed.count - (this.lastCount ?? observed.rooms));
    for (let i = 0; i < promisedNow; i++) this.promised.push(observed.now);
    const arrived = Math.max(0, observed.rooms - this.lastRooms);
    this.promised.splice(0, Math.min(arrived, this.promised.length));
    while (this.promised.length > 0 && observed.now - this.promised[0]! >= this.options.unclaimedMs) {
      this.promised.shift();
    }
    // A room placed here without an allocation (none is made outside ROOM_RUNTIME=agones) still takes a slot.
    const target = observed.rooms + this.promised.length;
    if (target !== observed.count) actions.push({ kind: 'count', diff: target - observed.count });
    this.lastCount = target;
    this.lastRooms = observed.rooms;

    if (target > 0) {
      this.idleSince = undefined;
      // Shown Ready while a room runs (a lagging view, or an earlier return to Ready racing an allocation): a Ready
      // GameServer may be scaled away, so it is claimed again.
      if (observed.state === 'Ready') actions.push({ kind: 'allocate' });
    } else if (observed.state === 'Allocated') {
      this.idleSince ??= observed.now;
      if (observed.now - this.idleSince >= this.options.idleMs) {
        this.idleSince = undefined;
        actions.push({ kind: 'ready' });
      }
    } else {
      this.idleSince = undefined;
    }
    return actions;
  }
}

interface TLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface TRoomSlotsOptions {
  lifecycle: TAgonesLifecycle;
  /** The agent's ROOM_CAPACITY: the Counter's capacity, whatever the Fleet's template says. */
  capacity: number;
  rooms: () => number;
  log: TLog;
  checkMs?: number;
  unclaimedMs?: number;
  idleMs?: number;
}

/** Keeps the `rooms` Counter true until the returned function is called. */
export function keepRoomSlots(options: TRoomSlotsOptions): () => void {
  const sdk: AgonesSdk = options.lifecycle.sdk;
  const ledger = new RoomSlotLedger({
    unclaimedMs: options.unclaimedMs ?? 60_000,
    idleMs: options.idleMs ?? 60_000,
  });
  let capacitySet = false;
  let busy = false;
  let stopped = false;
  let failing = false;

  const check = async () => {
    if (busy || stopped) return;
    busy = true;
    try {
      if (!capacitySet) {
        await sdk.updateCounter(ROOMS_COUNTER, { capacity: options.capacity });
        capacitySet = true;
      }
      const [counter, gameServer] = await Promise.all([sdk.counter(ROOMS_COUNTER), sdk.gameServer()]);
      const actions = ledger.step({
        now: Date.now(),
        count: counter.count,
        rooms: options.rooms(),
        state: gameServer.status?.state,
      });
      for (const action of actions) {
        if (stopped) break;
        if (action.kind === 'count') await sdk.updateCounter(ROOMS_COUNTER, { countDiff: action.diff });
        else if (action.kind === 'allocate') await sdk.allocate();
        else {
          options.log.info({}, 'no room here for a while: back to Ready, in the Fleet’s buffer');
          await sdk.ready();
        }
      }
      if (failing) options.log.info({}, 'Agones room slots in step again');
      failing = false;
    } catch (error) {
      // Every change is worked out against the count read, so one that failed is made again at the next tick.
      if (!failing) options.log.warn({ err: error }, 'could not keep the Agones room slots');
      failing = true;
    } finally {
      busy = false;
    }
  };
  void check();
  const timer = setInterval(() => void check(), options.checkMs ?? 2_000);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
