// Rooms whose run was lost (its agent died, was cut off, or left the fleet while the room ran) come back on
// another agent: the control plane starts them again as their owners' starts would. A room it cannot bring back
// (deleted, its owner out of room time or disabled, no agent free for too long) is given up: its lost run is
// closed as stopped, so the room waits for its owner like any stopped room.
import type { EntityManager } from '@mikro-orm/postgresql';
import { RUN_COLUMNS, type TRun, type TRunRow, toRun } from './runs';

/** A room nobody could start again for this long after its run was lost is given up. */
export const RESTART_GIVE_UP_MS = 5 * 60_000;

/** Runs that are the newest of their room and were lost: the rooms to start again. */
export async function lostRuns(em: EntityManager): Promise<TRun[]> {
  const rows = await em.execute<TRunRow[]>(
    `select ${RUN_COLUMNS} from (
       select distinct on (room_id) ${RUN_COLUMNS} from room_runs order by room_id, epoch desc
     ) newest where state = 'lost' order by lease_expires_at`,
  );
  return rows.map(toRun);
}

/** Closes a lost run as stopped (the room is not coming back by itself), unless a newer run exists by now. */
export async function giveUpRun(em: EntityManager, run: TRun): Promise<void> {
  await em.execute(
    `update room_runs set state = 'stopped' where id = ? and state = 'lost'
       and not exists (select 1 from room_runs newer where newer.room_id = ? and newer.epoch > ?)`,
    [run.id, run.roomId, run.epoch],
  );
  await em.execute(`update rooms set state = 'stopped' where id = ? and state <> 'stopped'`, [run.roomId]);
}
