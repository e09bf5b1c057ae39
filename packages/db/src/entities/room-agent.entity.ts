import { randomUUID } from 'node:crypto';
import { defineEntity, p } from '@mikro-orm/core';
import { Region } from './region.entity';

/**
 * `active` agents take new runs; `draining` ones keep the runs they have and take no more (before an upgrade or a
 * scale-down); `lost` ones stopped answering (or were replaced by a new registration at their address) and their
 * runs were marked lost. A lost agent stays lost: a process that comes back registers again as a new agent.
 */
export const roomAgentStates = ['active', 'draining', 'lost'] as const;
export type RoomAgentState = (typeof roomAgentStates)[number];

/**
 * One room agent process as it registered: the machine (or pod) that runs rooms' browsers, media and hubs.
 * `assigned` is the number of its live runs, kept by a trigger on `room_runs` in the transaction that creates or
 * ends each run, so placement reads a machine's load from one row and the database itself refuses an agent over
 * its capacity.
 */
const RoomAgentSchema = defineEntity({
  name: 'RoomAgent',
  tableName: 'room_agents',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    region: () => p.manyToOne(Region),
    /** How a gateway reaches the agent, e.g. `10.0.3.7:4100`. */
    address: p.string().length(255),
    /** The most rooms the agent runs at once. */
    capacity: p.integer(),
    /** The agent's build, so an operator sees a mixed fleet during an upgrade. */
    version: p.string().length(64),
    state: p.enum(roomAgentStates).default('active'),
    assigned: p.integer().default(0),
    registeredAt: p.datetime(),
    heartbeatAt: p.datetime(),
    /** When placement last gave the agent a run: agents equally loaded take turns, longest waiting first. */
    lastPlacedAt: p.datetime().nullable(),
    /** What the agent said of itself at its last heartbeat (name, rooms, CPU, memory, start times), for /serverstate. */
    report: p.json<Record<string, unknown>>().nullable(),
  },
  indexes: [
    { properties: ['region', 'state'] },
    { properties: ['address'] },
    // The lost sweep reads the live agents every 2 s, the pruning the lost ones (fleet.pruneFleet). The live ones
    // by id, a column heartbeats never change, so a heartbeat's update stays in place (HOT) instead of adding
    // index entries 330 times a second.
    { name: 'room_agents_live_index', properties: ['id'], where: "state <> 'lost'" },
    { name: 'room_agents_lost_heartbeat_index', properties: ['heartbeatAt'], where: "state = 'lost'" },
  ],
  checks: [
    { name: 'room_agents_capacity_check', expression: 'capacity > 0' },
    { name: 'room_agents_assigned_check', expression: 'assigned >= 0 and assigned <= capacity' },
  ],
});

export class RoomAgent extends RoomAgentSchema.class {}
RoomAgentSchema.setClass(RoomAgent);
