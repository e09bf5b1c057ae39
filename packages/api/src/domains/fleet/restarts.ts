// Rooms whose run was lost (its agent died, was cut off, or left the fleet while the room ran) come back on
// another agent: the control plane starts them again as their owners' starts would. A room it cannot bring back
// (deleted, its owner out of room time or disabled, no agent free for too long) is given up: its lost run is
// closed as stopped, so the room waits for its owner like any stopped room.
import type { EntityManager } from '@mikro-orm/postgresql';
import { storeGivenUp } from '../rooms/room-state';
import { RUN_COLUMNS, type TRun, type TRunRow, toRun } from './runs';

/** A room nobody could start again for this long after its run was lost is given up. */
export const RESTART_GIVE_UP_MS = 5 * 60_000;

export interface TLostRun {
  run: TRun;
  /** When it was marked lost. */
  lostAt: Date;
}

/**
 * Runs that are the newest of their room and were lost: the rooms to start again, longest lost first (of one room
 * when `roomId` is given). Asked every couple of seconds, so it reads the lost runs alone (their index), never the
 * whole history of runs.
 */
export async function lostRuns(em: EntityManager, roomId?: string): Promise<TLostRun[]> {
  const rows = await em.execute<(TRunRow & { ended_at: Date | string })[]>(
    `select ${RUN_COLUMNS}, ended_at from room_runs lost where state = 'lost' ${roomId ? 'and room_id = ?' : ''}
       and not exists (select 1 from room_runs newer where newer.room_id = lost.room_id and newer.epoch > lost.epoch)
     order by ended_at`,
    roomId ? [roomId] : [],
  );
  return rows.map((row) => ({ run: toRun(row), lostAt: new Date(row.ended_at) }));
}

/** The room's lost run while it waits to be started again (no newer run exists), else null. */
export async function lostRunOf(em: EntityManager, roomId: string): Promise<TLostRun | null> {
  return (await lostRuns(em, roomId))[0] ?? null;
}

/** Closes a lost run as stopped (the room is not coming back by itself), unless a newer run exists by now. */
export async function giveUpRun(em: EntityManager, run: TRun): Promise<void> {
  await em.execute(
    `update room_runs set state = 'stopped' where id = ? and state = 'lost'
       and not exists (select 1 from room_runs newer where newer.room_id = ? and newer.epoch > ?)`,
    [run.id, run.roomId, run.epoch],
  );
  await storeGivenUp(em, run.roomId);
}
