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

export interface THeartbeatRequest {
  agentId: string;
  /** What it says of its load; replaces the last one when given. */
  report?: Record<string, unknown>;
  /**
   * The runs the agent has: only theirs are renewed, so a run it never got (its control plane died before ordering
   * it) lapses and starts again elsewhere instead of waiting as "starting" for good. Unset: all its live runs.
   */
  held?: ReadonlySet<string>;
}

/** A PostgreSQL array literal of ids already checked to be UUIDs (nothing in them needs quoting). */
const uuidArray = (ids: readonly string[]) => `{${ids.join(',')}}`;

/**
 * Agents are alive: their heartbeat times and the leases of their live runs move on, in one transaction of four
 * statements however many agents speak (the control plane gathers the heartbeats that reach it in a moment and
 * writes them together: 1,000 agents are a few transactions a second, not 330). Answers in the order asked.
 */
export function heartbeats(
  em: EntityManager,
  requests: readonly THeartbeatRequest[],
  now: Date,
): Promise<THeartbeat[]> {
  // The last word of an agent that spoke twice in one batch counts; ids that cannot be an agent's are not asked.
  const byAgent = new Map<string, THeartbeatRequest>();
  for (const request of requests) if (isUuid(request.agentId)) byAgent.set(request.agentId, request);
  const asked = [...byAgent.keys()].sort();
  if (asked.length === 0) return Promise.resolve(requests.map(() => ({ ok: false, reason: 'not-found' })));
  return em.transactional(async (tx) => {
    // Locked in id order, as the lost sweep and placement lock them, so a batch and a sweep never deadlock.
    const live = await tx.execute<{ id: string; state: RoomAgentState }[]>(
      `select id, state from room_agents where id = any(?::uuid[]) and state <> 'lost' order by id for no key update`,
      [uuidArray(asked)],
    );
    const liveIds = live.map((row) => row.id);
    if (liveIds.length > 0) {
      const reports = liveIds.map((id) => ({ id, report: byAgent.get(id)?.report ?? null }));
      await tx.execute(
        `update room_agents a set heartbeat_at = greatest(a.heartbeat_at, ?), report = coalesce(b.report, a.report)
         from jsonb_to_recordset(?::jsonb) as b(id uuid, report jsonb) where a.id = b.id`,
        [now, JSON.stringify(reports)],
      );
    }
    // Leases: every live run of an agent that did not say which it has, only the named ones of those that did.
    const whole = liveIds.filter((id) => byAgent.get(id)?.held === undefined);
    const named = liveIds.flatMap((agentId) =>
      [...(byAgent.get(agentId)?.held ?? [])]
        .filter(isUuid)
        .map((runId) => ({ agent_id: agentId, run_id: runId })),
    );
    // Two statements, each led by an index (the runs' agent, the runs' key): one that ORs them reads every run.
    const lease = new Date(now.getTime() + RUN_LEASE_MS);
    const renewed = [
      ...(whole.length === 0
        ? []
        : await tx.execute<TRunRow[]>(
            `update room_runs set lease_expires_at = greatest(lease_expires_at, ?)
             where agent_id = any(?::uuid[]) and state in ('starting', 'running') returning ${RUN_COLUMNS}`,
            [lease, uuidArray(whole)],
          )),
      ...(named.length === 0
        ? []
        : await tx.execute<TRunRow[]>(
            `update room_runs r set lease_expires_at = greatest(r.lease_expires_at, ?)
             from jsonb_to_recordset(?::jsonb) as held(agent_id uuid, run_id uuid)
             where r.id = held.run_id and r.agent_id = held.agent_id and r.state in ('starting', 'running')
             returning ${RUN_COLUMNS.split(', ')
               .map((column) => `r.${column}`)
               .join(', ')}`,
            [lease, JSON.stringify(named)],
          )),
    ];
    const runsOf = new Map<string, TRun[]>(liveIds.map((id) => [id, []]));
    for (const row of renewed) runsOf.get(row.agent_id)?.push(toRun(row));
    const stateOf = new Map(live.map((row) => [row.id, row.state]));
    const silent = asked.filter((id) => !stateOf.has(id));
    const known =
      silent.length === 0
        ? new Set<string>()
        : new Set(
            (
              await tx.execute<{ id: string }[]>('select id from room_agents where id = any(?::uuid[])', [
                uuidArray(silent),
              ])
            ).map((row) => row.id),
          );
    return requests.map((request): THeartbeat => {
      const state = stateOf.get(request.agentId);
      if (state) return { ok: true, state, runs: runsOf.get(request.agentId) ?? [] };
      return { ok: false, reason: known.has(request.agentId) ? 'lost' : 'not-found' };
    });
  });
}

/** One agent's heartbeat: a batch of one. */
export async function heartbeat(
  em: EntityManager,
  agentId: string,
  now: Date,
  report?: Record<string, unknown>,
  held?: ReadonlySet<string>,
): Promise<THeartbeat> {
  const [answer] = await heartbeats(em, [{ agentId, report, held }], now);
  return answer!;
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
    // The two ways in as a union, each read through its own partial index (live agents, live runs' leases): an OR
    // of them would read every agent, lost ones included, each sweep.
    const locked = await tx.execute<{ id: string; silent: boolean }[]>(
      `select id, (state <> 'lost' and heartbeat_at <= ?) as silent from room_agents
       where id in (select id from room_agents where state <> 'lost' and heartbeat_at <= ?
                    union
                    select agent_id from room_runs where state in ('starting', 'running') and lease_expires_at <= ?)
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
