// The agent registry: agents register and heartbeat; the control plane drains them and sweeps up the silent ones,
// handing their runs back so the rooms can be started elsewhere.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RoomAgentState } from '@rooms/db';
import { isUuid } from '../../schemas/common';
import { AGENT_LOST_AFTER_MS, RUN_LEASE_MS } from './rules';
import { RUN_COLUMNS, type TRun, type TRunRow, toRun } from './runs';

export interface TAgent {
  id: string;
  regionId: string;
  address: string;
  capacity: number;
  version: string;
  state: RoomAgentState;
  /** Its live runs. */
  assigned: number;
  registeredAt: Date;
  heartbeatAt: Date;
  /** What it said of itself at its last heartbeat (unchecked: the reader validates what it shows). */
  report: unknown;
}

interface TAgentRow {
  id: string;
  region_id: string;
  address: string;
  capacity: number;
  version: string;
  state: RoomAgentState;
  assigned: number;
  registered_at: Date | string;
  heartbeat_at: Date | string;
  report: unknown;
}

const AGENT_COLUMNS =
  'id, region_id, address, capacity, version, state, assigned, registered_at, heartbeat_at, report';

function toAgent(row: TAgentRow): TAgent {
  return {
    id: row.id,
    regionId: row.region_id,
    address: row.address,
    capacity: row.capacity,
    version: row.version,
    state: row.state,
    assigned: row.assigned,
    registeredAt: new Date(row.registered_at),
    heartbeatAt: new Date(row.heartbeat_at),
    report: row.report ?? null,
  };
}

export interface TAgentRegistration {
  /** The region's code, as the agent's configuration names it (e.g. `local`). */
  regionCode: string;
  address: string;
  capacity: number;
  version: string;
}

export interface TRegistered {
  agent: TAgent;
  /**
   * Runs of an earlier agent at the same address, marked lost by this registration: that process is gone (a
   * machine answers at one address), so its rooms are not running and should be started again.
   */
  lostRuns: TRun[];
}

/**
 * Registers a starting agent process in one zone. Each registration is a new agent: a process that restarts has
 * lost its browsers, so it must not inherit its former runs; an earlier registration at the same address in the
 * same zone is lost at once instead of after the silence threshold. A process serving several zones registers in
 * each under one address, and those registrations stand side by side (one zone's used to lose the others').
 */
export function registerAgent(em: EntityManager, input: TAgentRegistration, now: Date): Promise<TRegistered> {
  if (!Number.isInteger(input.capacity) || input.capacity < 1) {
    return Promise.reject(
      new RangeError(`An agent's capacity is a whole number of rooms, not ${input.capacity}`),
    );
  }
  return em.transactional(async (tx) => {
    const [region] = await tx.execute<{ id: string }[]>('select id from regions where code = ?', [
      input.regionCode,
    ]);
    if (!region) throw new Error(`No region with the code ${JSON.stringify(input.regionCode)}`);
    const earlier = await tx.execute<{ id: string }[]>(
      `select id from room_agents where address = ? and region_id = ? and state <> 'lost'
       order by id for no key update`,
      [input.address, region.id],
    );
    const lostRuns = await loseAgents(
      tx,
      earlier.map((row) => row.id),
      now,
    );
    const [row] = await tx.execute<TAgentRow[]>(
      `insert into room_agents (id, region_id, address, capacity, version, state, assigned, registered_at, heartbeat_at)
       values (gen_random_uuid(), ?, ?, ?, ?, 'active', 0, ?, ?) returning ${AGENT_COLUMNS}`,
      [region.id, input.address, input.capacity, input.version, now, now],
    );
    if (!row) throw new Error('The agent was not registered');
    return { agent: toAgent(row), lostRuns };
  });
}

/** Marks the (already locked) agents lost with their live runs; returns the runs. */
async function loseAgents(tx: EntityManager, agentIds: string[], now: Date): Promise<TRun[]> {
  if (agentIds.length === 0) return [];
  await tx.execute(`update room_agents set state = 'lost' where id in (?)`, [agentIds]);
  const rows = await tx.execute<TRunRow[]>(
    `update room_runs set state = 'lost', ended_at = ?
     where agent_id in (?) and state in ('starting', 'running') returning ${RUN_COLUMNS}`,
    [now, agentIds],
  );
  return rows.map(toRun);
}

export type THeartbeat =
  | {
      ok: true;
      state: RoomAgentState;
      /** The runs the control plane holds the agent to: a room it runs that is not here was given away. */
      runs: TRun[];
    }
  /** The agent was declared lost (or never registered): its rooms run elsewhere; it stops them and registers again. */
  | { ok: false; reason: 'lost' | 'not-found' };

/**
 * The agent is alive: its heartbeat time and the leases of its live runs move on; `report` (what it says of its
 * load) replaces the last one when given. `held`, when given, names the runs the agent has: only theirs are
 * renewed, so a run it never got (its control plane died before ordering it) lapses and starts again elsewhere
 * instead of waiting as "starting" for good.
 */
export function heartbeat(
  em: EntityManager,
  agentId: string,
  now: Date,
  report?: Record<string, unknown>,
  held?: ReadonlySet<string>,
): Promise<THeartbeat> {
  if (!isUuid(agentId)) return Promise.resolve({ ok: false, reason: 'not-found' });
  return em.transactional(async (tx) => {
    const [agent] = await tx.execute<{ state: RoomAgentState }[]>(
      `update room_agents set heartbeat_at = greatest(heartbeat_at, ?), report = coalesce(?::jsonb, report)
       where id = ? and state <> 'lost' returning state`,
      [now, report === undefined ? null : JSON.stringify(report), agentId],
    );
    if (!agent) {
      const [known] = await tx.execute<{ id: string }[]>('select id from room_agents where id = ?', [
        agentId,
      ]);
      return { ok: false, reason: known ? 'lost' : 'not-found' };
    }
    const heldIds = held ? [...held].filter(isUuid) : undefined;
    const lease = new Date(now.getTime() + RUN_LEASE_MS);
    const runs =
      heldIds?.length === 0
        ? []
        : await tx.execute<TRunRow[]>(
            `update room_runs set lease_expires_at = greatest(lease_expires_at, ?)
             where agent_id = ? and state in ('starting', 'running')${heldIds ? ' and id in (?)' : ''}
             returning ${RUN_COLUMNS}`,
            heldIds ? [lease, agentId, heldIds] : [lease, agentId],
          );
    return { ok: true, state: agent.state, runs: runs.map(toRun) };
  });
}

/**
 * A draining agent keeps its runs and takes no new ones (before an upgrade or a scale-down); `false` takes it
 * back into placement. A lost agent stays lost. Returns false when there is no such live agent.
 */
export async function setAgentDraining(
  em: EntityManager,
  agentId: string,
  draining: boolean,
): Promise<boolean> {
  if (!isUuid(agentId)) return false;
  const rows = await em.execute<{ id: string }[]>(
    `update room_agents set state = ? where id = ? and state <> 'lost' returning id`,
    [draining ? 'draining' : 'active', agentId],
  );
  return rows.length > 0;
}

export interface TLostSweep {
  /** Agents declared lost by this sweep. */
  agentIds: string[];
  /** Their live runs, and any other run whose lease lapsed, now lost: the rooms to start again. */
  runs: TRun[];
}

/**
 * Agents silent for `AGENT_LOST_AFTER_MS` become lost and their live runs with them; a live run whose lease lapsed
 * is lost too, whatever its agent. Run every `LOST_SWEEP_INTERVAL_MS` by one or more control-plane processes:
 * they lock the agents in one order, so concurrent sweeps queue rather than deadlock, and each run is returned
 * by exactly one sweep.
 */
export function markLostAgents(em: EntityManager, now: Date): Promise<TLostSweep> {
  const silentSince = new Date(now.getTime() - AGENT_LOST_AFTER_MS);
  return em.transactional(async (tx) => {
    // The agents of lapsed runs are locked too: a run is always locked after its agent (see runs.ts).
    const locked = await tx.execute<{ id: string; silent: boolean }[]>(
      `select id, (state <> 'lost' and heartbeat_at <= ?) as silent from room_agents
       where (state <> 'lost' and heartbeat_at <= ?)
          or id in (select agent_id from room_runs where state in ('starting', 'running') and lease_expires_at <= ?)
       order by id for no key update`,
      [silentSince, silentSince, now],
    );
    if (locked.length === 0) return { agentIds: [], runs: [] };
    const agentIds = locked.filter((row) => row.silent).map((row) => row.id);
    const runs = await loseAgents(tx, agentIds, now);
    const lapsed = await tx.execute<TRunRow[]>(
      `update room_runs set state = 'lost', ended_at = ?
       where agent_id in (?) and state in ('starting', 'running') and lease_expires_at <= ?
       returning ${RUN_COLUMNS}`,
      [now, locked.map((row) => row.id), now],
    );
    return { agentIds, runs: [...runs, ...lapsed.map(toRun)] };
  });
}

/**
 * An agent leaving the fleet on purpose (its process shuts down): lost at once with its live runs, which are
 * returned, instead of after the silence threshold.
 */
export function retireAgent(em: EntityManager, agentId: string, now: Date): Promise<TRun[]> {
  if (!isUuid(agentId)) return Promise.resolve([]);
  return em.transactional(async (tx) => {
    const locked = await tx.execute<{ id: string }[]>(
      `select id from room_agents where id = ? and state <> 'lost' for no key update`,
      [agentId],
    );
    return loseAgents(
      tx,
      locked.map((row) => row.id),
      now,
    );
  });
}

/** Agents that are not lost, of every region, for /serverstate. */
export async function liveAgents(em: EntityManager): Promise<TAgent[]> {
  const rows = await em.execute<TAgentRow[]>(
    `select ${AGENT_COLUMNS} from room_agents where state <> 'lost' order by registered_at, id`,
  );
  return rows.map(toAgent);
}

/** The agents of a region, for /serverstate and the tests. */
export async function agentsOf(em: EntityManager, regionId: string): Promise<TAgent[]> {
  const rows = await em.execute<TAgentRow[]>(
    `select ${AGENT_COLUMNS} from room_agents where region_id = ? order by registered_at, id`,
    [regionId],
  );
  return rows.map(toAgent);
}

export async function agentById(em: EntityManager, agentId: string): Promise<TAgent | null> {
  if (!isUuid(agentId)) return null;
  const [row] = await em.execute<TAgentRow[]>(`select ${AGENT_COLUMNS} from room_agents where id = ?`, [
    agentId,
  ]);
  return row ? toAgent(row) : null;
}
