// Placement: which agent runs a room's next start. A live agent of the room's region with a free slot, the least
// loaded first; the run is created with the room's next epoch and a lease, in one transaction.
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../errors';
import { isUuid } from '../../schemas/common';
import { AGENT_LOST_AFTER_MS, RUN_LEASE_MS } from './rules';
import { RUN_COLUMNS, type TRun, type TRunRow, toRun } from './runs';

export interface TPlacement {
  run: TRun;
  /** Where gateways reach the run's agent. */
  agentAddress: string;
  /** False when the room already had a live run, which is returned instead of a second one. */
  created: boolean;
}

/**
 * Agents that may take a run: active (not draining, not lost), heard from within the lost threshold (one that
 * went silent is not handed rooms in the seconds before the sweep declares it lost) and with a free slot.
 */
const ELIGIBLE = `region_id = ? and state = 'active' and heartbeat_at > ? and assigned < capacity`;

/**
 * Least loaded is the share of capacity in use, so a bigger machine takes proportionally more rooms; among equally
 * loaded agents the one placed on longest ago goes first, so a burst of starts spreads over the region in turns.
 */
const LEAST_LOADED = 'order by assigned::float8 / capacity, last_placed_at nulls first, id';

/**
 * Takes a slot on the least loaded eligible agent: returns it locked until the transaction ends, or null when
 * the region has no free slot.
 *
 * Row locks rather than one advisory lock per region: placements in a region then run side by side, each on a
 * different agent. `skip locked` makes a placement pass over agents that concurrent placements are filling, and
 * never wait; the agent's row stays locked until the run is committed, so its `assigned` (moved by the trigger on
 * the run's insert) is never read stale and the region cannot be overfilled (the check on `assigned <= capacity`
 * would refuse it anyway).
 *
 * When every agent with a free slot is locked, their slots may all be taken by the time they are free, or not, so
 * the second pick waits for them; PostgreSQL checks a waited-for row again once it is free and moves on to the next
 * when it no longer qualifies, so a region is called full only when it is. A row it moves on from stays locked,
 * though, so waiting picks go in one order (by id, not by load) to never deadlock one another, and start from a
 * clean slate: the first pick's savepoint is rolled back, which lets go of any row it locked without taking it.
 */
async function takeSlot(
  tx: EntityManager,
  regionId: string,
  now: Date,
  among: readonly string[] | undefined,
): Promise<{ id: string; address: string } | null> {
  const heardSince = new Date(now.getTime() - AGENT_LOST_AFTER_MS);
  const only = among ? ' and id in (?)' : '';
  const take = (pick: string) =>
    tx.execute<{ id: string; address: string }[]>(
      `update room_agents set last_placed_at = ? where id = (select id from room_agents where ${ELIGIBLE}${only} ${pick})
       returning id, address`,
      among ? [now, regionId, heardSince, among] : [now, regionId, heardSince],
    );
  await tx.execute('savepoint fleet_pick');
  const [free] = await take(`${LEAST_LOADED} limit 1 for no key update skip locked`);
  if (free) {
    await tx.execute('release savepoint fleet_pick');
    return free;
  }
  await tx.execute('rollback to savepoint fleet_pick');
  const [waited] = await take('order by id limit 1 for no key update');
  return waited ?? null;
}

/**
 * Places a start of the room in its region and creates its run (epoch: the room's last plus one, lease from now).
 * A room that already has a live run gets that run back (`created: false`), never a second one. Refusals are
 * AppErrors a person can read: ROOM_NOT_FOUND; ROOMS_UNAVAILABLE when no agent of the region is up at all;
 * SERVER_FULL when every one of them is full. `among`: only these agents may take it (a single server places on
 * its own agent, which no other process can reach).
 */
export function placeRun(
  em: EntityManager,
  roomId: string,
  now: Date,
  among?: readonly string[],
): Promise<TPlacement> {
  if (!isUuid(roomId)) return Promise.reject(new AppError('ROOM_NOT_FOUND'));
  // No agent to choose from is no agent up.
  if (among?.length === 0) return Promise.reject(new AppError('ROOMS_UNAVAILABLE'));
  return em.transactional(async (tx) => {
    // Starts of one room queue here, so the live-run check and the next epoch are read by one start at a time.
    // `no key update` leaves writes that merely reference the room (its meter, reports) free to go on.
    const [room] = await tx.execute<{ region_id: string }[]>(
      'select region_id from rooms where id = ? for no key update',
      [roomId],
    );
    if (!room) throw new AppError('ROOM_NOT_FOUND');

    const [live] = await tx.execute<(TRunRow & { address: string })[]>(
      `select r.id, r.room_id, r.agent_id, r.epoch, r.state, r.lease_expires_at, a.address
       from room_runs r join room_agents a on a.id = r.agent_id
       where r.room_id = ? and r.state in ('starting', 'running')`,
      [roomId],
    );
    if (live) return { run: toRun(live), agentAddress: live.address, created: false };

    const agent = await takeSlot(tx, room.region_id, now, among);
    if (!agent) {
      const heardSince = new Date(now.getTime() - AGENT_LOST_AFTER_MS);
      const [up] = await tx.execute<{ n: number }[]>(
        `select 1 as n from room_agents where region_id = ? and state = 'active' and heartbeat_at > ?${
          among ? ' and id in (?)' : ''
        } limit 1`,
        among ? [room.region_id, heardSince, among] : [room.region_id, heardSince],
      );
      throw new AppError(up ? 'SERVER_FULL' : 'ROOMS_UNAVAILABLE');
    }

    // The unique (room_id, epoch) is the database's guard on the epoch; the room's lock means it never fires here.
    const [run] = await tx.execute<TRunRow[]>(
      `insert into room_runs (id, room_id, agent_id, epoch, state, lease_expires_at, created_at)
       select gen_random_uuid(), ?, ?, coalesce(max(epoch), 0) + 1, 'starting', ?, ? from room_runs where room_id = ?
       returning ${RUN_COLUMNS}`,
      [roomId, agent.id, new Date(now.getTime() + RUN_LEASE_MS), now, roomId],
    );
    if (!run) throw new Error('The run was not created');
    return { run: toRun(run), agentAddress: agent.address, created: true };
  });
}
