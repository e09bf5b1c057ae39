// A run's life after placement: the agent says it runs, the agent or the control plane ends it. Every such write
// carries the run's epoch, and a write from a run the room has moved on from is refused (the epoch fence).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RoomRunState } from '@rooms/db';
import { isUuid } from '../../schemas/common';

export interface TRun {
  id: string;
  roomId: string;
  agentId: string;
  /** The room's count of starts: 1 for its first run, one more for each later one. */
  epoch: number;
  state: RoomRunState;
  leaseExpiresAt: Date;
}

export interface TRunRow {
  id: string;
  room_id: string;
  agent_id: string;
  epoch: number;
  state: RoomRunState;
  /** A string or a Date, depending on the driver's type parsing. */
  lease_expires_at: Date | string;
}

export const RUN_COLUMNS = 'id, room_id, agent_id, epoch, state, lease_expires_at';

export function toRun(row: TRunRow): TRun {
  return {
    id: row.id,
    roomId: row.room_id,
    agentId: row.agent_id,
    epoch: row.epoch,
    state: row.state,
    leaseExpiresAt: new Date(row.lease_expires_at),
  };
}

/**
 * Why a fenced write was refused. `stale`: the epoch is not the run's, or the room has a newer run (the write
 * comes from a run that was given away); `ended`: the run is already over; `not-found`: no such run.
 */
export type TRunRefusal = 'stale' | 'ended' | 'not-found';

export type TRunWrite = { ok: true; run: TRun } | { ok: false; reason: TRunRefusal };

/**
 * Moves a live run of `epoch` to `state`. The run's agent is locked before the run (heartbeats and the lost
 * sweep lock in that order too, so none of them can deadlock another), and the run's own state change moves the
 * agent's count through the trigger on `room_runs`.
 */
async function fencedMove(
  em: EntityManager,
  runId: string,
  epoch: number,
  from: readonly RoomRunState[],
  state: RoomRunState,
  now: Date,
): Promise<TRunWrite> {
  if (!isUuid(runId)) return { ok: false, reason: 'not-found' };
  return em.transactional(async (tx) => {
    const [found] = await tx.execute<TRunRow[]>(`select ${RUN_COLUMNS} from room_runs where id = ?`, [runId]);
    if (!found) return { ok: false, reason: 'not-found' };
    if (found.epoch !== epoch) return { ok: false, reason: 'stale' };
    await tx.execute('select id from room_agents where id = ? for no key update', [found.agent_id]);
    const ended = state === 'stopped' || state === 'lost';
    const [moved] = await tx.execute<TRunRow[]>(
      `update room_runs set state = ?, ended_at = ? where id = ? and epoch = ? and state in (?)
       returning ${RUN_COLUMNS}`,
      [state, ended ? now : null, runId, epoch, from],
    );
    if (moved) return { ok: true, run: toRun(moved) };
    // Only the newest run of a room can be live, so a run that is over is stale once the room has run again.
    const [newer] = await tx.execute<{ n: number }[]>(
      'select 1 as n from room_runs where room_id = ? and epoch > ? limit 1',
      [found.room_id, epoch],
    );
    return { ok: false, reason: newer ? 'stale' : 'ended' };
  });
}

/** The agent's browser for the run is up: `starting` becomes `running`. */
export function markRunRunning(
  em: EntityManager,
  runId: string,
  epoch: number,
  now: Date,
): Promise<TRunWrite> {
  return fencedMove(em, runId, epoch, ['starting'], 'running', now);
}

/** The room stopped (its owner, auto-close, a crash the agent reported): the run ends and frees its slot. */
export function endRun(em: EntityManager, runId: string, epoch: number, now: Date): Promise<TRunWrite> {
  return fencedMove(em, runId, epoch, ['starting', 'running'], 'stopped', now);
}

/** The room's live run, if any. */
export async function liveRunOf(em: EntityManager, roomId: string): Promise<TRun | null> {
  if (!isUuid(roomId)) return null;
  const [row] = await em.execute<TRunRow[]>(
    `select ${RUN_COLUMNS} from room_runs where room_id = ? and state in ('starting', 'running')`,
    [roomId],
  );
  return row ? toRun(row) : null;
}
