import { randomUUID } from 'node:crypto';
import { defineEntity, p } from '@mikro-orm/core';
import { Room } from './room.entity';
import { RoomAgent } from './room-agent.entity';
import { runChanged } from './room-run-changes';

/** `starting` and `running` runs are live (at most one per room); `stopped` and `lost` ones are history. */
export const roomRunStates = ['starting', 'running', 'stopped', 'lost'] as const;
export type RoomRunState = (typeof roomRunStates)[number];
export const liveRoomRunStates = ['starting', 'running'] as const satisfies readonly RoomRunState[];

/**
 * One start of a room on one agent. The epoch counts a room's runs (1, 2, …; unique per room), so a write
 * from an agent whose run was given away (a late stop, a late profile upload) carries an older epoch and is refused.
 * The lease is renewed by the agent's heartbeats; one that lapses means the run is lost.
 */
const RoomRunSchema = defineEntity({
  name: 'RoomRun',
  tableName: 'room_runs',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    room: () => p.manyToOne(Room).deleteRule('cascade'),
    agent: () => p.manyToOne(RoomAgent).index(),
    epoch: p.integer(),
    state: p.enum(roomRunStates).default('starting'),
    leaseExpiresAt: p.datetime(),
    createdAt: p.datetime(),
    endedAt: p.datetime().nullable(),
  },
  uniques: [
    { properties: ['room', 'epoch'] },
    // The database's own guarantee that a room never runs twice, whatever two control-plane processes decide.
    { name: 'room_runs_live_room_unique', properties: ['room'], where: "state in ('starting', 'running')" },
  ],
  // The sweep for lapsed leases reads only live runs; the restarts only lost ones (fleet.lostRuns); the pruning
  // only ended ones (fleet.pruneFleet).
  indexes: [
    { name: 'room_runs_ended_index', properties: ['endedAt'], where: "state in ('stopped', 'lost')" },
    { name: 'room_runs_lost_index', properties: ['room', 'epoch'], where: "state = 'lost'" },
    {
      name: 'room_runs_live_lease_index',
      properties: ['leaseExpiresAt'],
      where: "state in ('starting', 'running')",
    },
  ],
  checks: [{ name: 'room_runs_epoch_check', expression: 'epoch > 0' }],
  triggers: [
    {
      // An agent's `assigned` counts its live runs whoever writes them (placement, a stop, the lost-agent sweep,
      // a room deleted with its runs), so the count cannot drift from the rows; the agent's capacity check then
      // refuses the run that would overfill it.
      name: 'room_runs_assigned',
      timing: 'after',
      events: ['insert', 'update', 'delete'],
      forEach: 'row',
      body: `if tg_op <> 'DELETE' and new.state in ('starting', 'running')
      and (tg_op = 'INSERT' or old.state not in ('starting', 'running')) then
    update room_agents set assigned = assigned + 1 where id = new.agent_id;
  end if;
  if tg_op <> 'INSERT' and old.state in ('starting', 'running')
      and (tg_op = 'DELETE' or new.state not in ('starting', 'running')) then
    update room_agents set assigned = assigned - 1 where id = old.agent_id;
  end if;
  return null`,
    },
    runChanged,
  ],
});

export class RoomRun extends RoomRunSchema.class {}
RoomRunSchema.setClass(RoomRun);
