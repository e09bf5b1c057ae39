import { describe, expect, it } from 'vitest';
import { RoomSlotLedger, type TSlotObservation } from './room-slots';

const MINUTE = 60_000;

function ledger() {
  return new RoomSlotLedger({ unclaimedMs: MINUTE, idleMs: MINUTE });
}

/** Feeds the ledger, applying its count changes the way the sidecar would. */
function agent() {
  const slots = ledger();
  let count = 0;
  return {
    allocate(n = 1) {
      count += n;
    },
    step(now: number, rooms: number, state = 'Allocated') {
      const actions = slots.step({ now, count, rooms, state } satisfies TSlotObservation);
      for (const action of actions) if (action.kind === 'count') count += action.diff;
      return { count, actions };
    },
  };
}

describe('RoomSlotLedger', () => {
  it('keeps the slot an allocation took while its room starts, and gives it back when the room ends', () => {
    const gs = agent();
    gs.step(0, 0, 'Ready');
    gs.allocate();
    expect(gs.step(1_000, 0).count).toBe(1);
    expect(gs.step(3_000, 1).count).toBe(1);
    expect(gs.step(30 * MINUTE, 1).count).toBe(1);
    expect(gs.step(30 * MINUTE + 2_000, 0).count).toBe(0);
  });

  it('gives back a promised slot whose room never came, after a minute', () => {
    const gs = agent();
    gs.step(0, 0);
    gs.allocate();
    expect(gs.step(2_000, 0).count).toBe(1);
    expect(gs.step(59_000, 0).count).toBe(1);
    expect(gs.step(62_000, 0).count).toBe(0);
  });

  it('matches arriving rooms to promises oldest first, so a steady stream of starts keeps every slot', () => {
    const gs = agent();
    gs.step(0, 0);
    let rooms = 0;
    // A new promise every 20 s, each room arriving 20 s after its promise: one promise always pending.
    for (let t = 0; t <= 5 * MINUTE; t += 20_000) {
      gs.allocate();
      const { count } = gs.step(t + 1, rooms);
      expect(count).toBe(rooms + 1);
      rooms += 1;
    }
  });

  it('counts a room placed here without an allocation, and an end and a new promise at once', () => {
    const gs = agent();
    gs.step(0, 0);
    expect(gs.step(2_000, 1).count).toBe(1);
    gs.allocate();
    // The room ended and another was promised between two readings.
    expect(gs.step(4_000, 0).count).toBe(1);
    expect(gs.step(6_000, 1).count).toBe(1);
  });

  it('claims the GameServer while it has rooms, and goes back to Ready after a minute empty', () => {
    const slots = ledger();
    expect(slots.step({ now: 0, count: 1, rooms: 1, state: 'Ready' })).toEqual([{ kind: 'allocate' }]);
    expect(slots.step({ now: 1_000, count: 1, rooms: 1, state: 'Allocated' })).toEqual([]);
    expect(slots.step({ now: 2_000, count: 1, rooms: 0, state: 'Allocated' })).toEqual([
      { kind: 'count', diff: -1 },
    ]);
    expect(slots.step({ now: 4_000, count: 0, rooms: 0, state: 'Allocated' })).toEqual([]);
    expect(slots.step({ now: 63_000, count: 0, rooms: 0, state: 'Allocated' })).toEqual([{ kind: 'ready' }]);
    expect(slots.step({ now: 65_000, count: 0, rooms: 0, state: 'Ready' })).toEqual([]);
  });
});
