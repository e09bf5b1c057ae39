// The one writer of a room's stored state (rooms.state), which the dashboards, the square and the fleet read:
// what a start or a stop leaves (the engine's answer), what an agent's engine reports as it happens (fenced by
// the run's epoch), the corrections of an agent starting up, and a room the fleet gave up bringing back.
import type { EntityManager } from '@mikro-orm/postgresql';
import { Room } from '@rooms/db';
import type { TRoomRuntimeState } from '../../services/room-engine';

/** Stores the state on a loaded room, with whatever else the request changed on it (one flush). */
export async function recordRoomState(
  em: EntityManager,
  room: Room,
  state: TRoomRuntimeState,
): Promise<void> {
  room.state = state;
  await em.flush();
}

/** Stores the state of the rooms by id, without loading them. */
export async function storeRoomStates(
  em: EntityManager,
  roomIds: string | readonly string[],
  state: TRoomRuntimeState,
): Promise<void> {
  const id = typeof roomIds === 'string' ? roomIds : { $in: [...roomIds] };
  await em.nativeUpdate(Room, { id }, { state });
}

/**
 * Stores what the room's run on an agent reports, while the room has no newer run (epoch): an agent the fleet gave
 * up on never overwrites the new agent's word.
 */
export async function storeRunState(
  em: EntityManager,
  roomId: string,
  state: TRoomRuntimeState,
  epoch: number,
): Promise<void> {
  await em.execute(
    'update rooms set state = ? where id = ? and not exists (select 1 from room_runs where room_id = ? and epoch > ?)',
    [state, roomId, roomId, epoch],
  );
}

/** A room the fleet gave up bringing back waits for its owner, stopped. */
export async function storeGivenUp(em: EntityManager, roomId: string): Promise<void> {
  await em.execute(`update rooms set state = 'stopped' where id = ? and state <> 'stopped'`, [roomId]);
}
