// The room engine as the control plane runs it: a start is placed on a live agent of the room's zone (a run with
// the room's next epoch, in PostgreSQL) and ordered on that agent; a stop goes to the agent running the room. What
// runs where is kept in memory from the runs' own notices (the `run_changed` trigger), so "does this room run?"
// is answered without a query, for rooms on every agent. Rooms on the agent inside this process (npm start) are
// answered by its engine itself, crashes and all.
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import {
  AppError,
  fleet,
  type RoomEngine,
  type TRoomLaunchSpec,
  type TRoomMediaStats,
  type TRoomRuntimeState,
  type TRoomStateChange,
} from '@rooms/api';
import type { TRoomEnding } from '@rooms/api/room-protocol';
import { liveRoomRunStates, type RoomRunState, RUN_CHANGED_CHANNEL } from '@rooms/db';
import type { TSessionEventBus } from '../services/session-events/session-events';
import { httpAgentLink, type TAgentLink } from './agent-link';
import type { AgentRuns } from './agent-runs';
import type { TAllocateAgents } from './agones/agones-placement';
import type { TFleetCaller } from './fleet-callers';

interface TLog {
  warn(object: object, message: string): void;
}

/** The agent in this process, when it runs rooms itself. */
export interface TLocalRooms {
  engine: RoomEngine;
  runs: AgentRuns;
  /** This process's agent ids (one per zone it serves). */
  agentIds(): ReadonlySet<string>;
  /** Whether other processes reach this agent (it has an address): if not, only this process places on it. */
  reachable: boolean;
}

export interface TFleetRoomEngineOptions {
  orm: MikroORM;
  /** How its orders are signed: a control plane's caller. Absent (agents, gateways): it orders no other agent. */
  caller: TFleetCaller | undefined;
  log: TLog;
  local?: TLocalRooms;
  /**
   * Where kept profiles live, for a process without an agent of its own: a deleted room's saved profile goes with
   * it (object storage; profiles on an agent's own disk stay that agent's).
   */
  profiles?: { delete(roomId: string): Promise<void> };
  /** Where the runtime hands out agents itself (Agones), the agents a start may be placed on. */
  allocate?: TAllocateAgents;
  now?: () => Date;
}

interface TWhere {
  agentId: string;
  state: RoomRunState;
}

const isLive = (state: RoomRunState) => (liveRoomRunStates as readonly RoomRunState[]).includes(state);

/**
 * How long placement passes over an agent an order could not reach (a wrong AGENT_ADDRESS, a network that drops
 * it): its heartbeats go on through the database, so it still looks like the least loaded agent of its zone, and
 * would take every start there only to fail it.
 */
const UNREACHABLE_BACKOFF_MS = 30_000;

export class FleetRoomEngine implements RoomEngine {
  /** The live run of every room of the fleet: which agent, starting or running. */
  private readonly where = new Map<string, TWhere>();
  private readonly listeners = new Set<(change: TRoomStateChange) => void>();
  private readonly now: () => Date;
  private stopWatching: (() => void) | undefined;
  /** Agents an order could not reach, and until when placement passes over them. */
  private readonly unreachable = new Map<string, number>();

  constructor(private readonly options: TFleetRoomEngineOptions) {
    this.now = options.now ?? (() => new Date());
    options.local?.engine.onStateChange((change) => this.emit(change));
  }

  /** Follows the runs' notices; what was announced while nobody listened is read again from the table. */
  async watch(bus: TSessionEventBus): Promise<void> {
    this.stopWatching = bus.subscribeTable(RUN_CHANGED_CHANNEL, (change) => {
      if ('missed' in change) void this.reload();
      else this.runChanged(change.key);
    });
    await this.reload();
  }

  start(spec: TRoomLaunchSpec): Promise<void> {
    return this.place(spec, true);
  }

  /** Places and orders the run; an agent that cannot be reached is passed over, and the start tried once more. */
  private async place(spec: TRoomLaunchSpec, mayRetry: boolean): Promise<void> {
    const em = this.options.orm.em.fork();
    // An agent without an address (npm start's) is reached in its own process only: that process places there.
    const local = this.options.local;
    let among = local && !local.reachable ? [...local.agentIds()] : undefined;
    // A room that runs already keeps its run; only a new one takes an agent out of the runtime.
    if (this.options.allocate && !(await fleet.liveRunOf(em, spec.roomId))) {
      among = [...(await this.options.allocate(spec.roomId))];
    }
    among = await this.passOverUnreachable(em, spec.roomId, among);
    const placement = await fleet.placeRun(em, spec.roomId, this.now(), among);
    const { run } = placement;
    this.where.set(run.roomId, { agentId: run.agentId, state: run.state });
    // Already starting or running somewhere: a second start is the same start.
    if (!placement.created) return;
    try {
      await this.linkTo(run.agentId, placement.agentAddress).start({
        runId: run.id,
        epoch: run.epoch,
        spec: { ...spec, epoch: run.epoch },
      });
      this.where.set(run.roomId, { agentId: run.agentId, state: 'running' });
    } catch (error) {
      await fleet.endRun(this.options.orm.em.fork(), run.id, run.epoch, this.now()).catch(() => {});
      this.forget(run.roomId, run.agentId);
      // The agent in this process is reached without a network: its refusals are its own words.
      const remote = !this.options.local?.agentIds().has(run.agentId);
      if (!(remote && error instanceof AppError && error.appCode === 'ROOMS_UNAVAILABLE')) throw error;
      this.unreachable.set(run.agentId, Date.now() + UNREACHABLE_BACKOFF_MS);
      this.options.log.warn(
        { agentId: run.agentId, address: placement.agentAddress, roomId: spec.roomId },
        'a room agent could not be reached: passed over for a while',
      );
      if (!mayRetry) throw error;
      return this.place(spec, false);
    }
  }

  /**
   * The agents a start may be placed on without those an order lately could not reach; unchanged when none is
   * backed off, or when passing over them would leave nobody (a zone's only agent is tried again).
   */
  private async passOverUnreachable(
    em: EntityManager,
    roomId: string,
    among: string[] | undefined,
  ): Promise<string[] | undefined> {
    const now = Date.now();
    for (const [agentId, until] of this.unreachable) if (until <= now) this.unreachable.delete(agentId);
    if (this.unreachable.size === 0) return among;
    const candidates =
      among ??
      (
        await em.execute<{ id: string }[]>(
          `select a.id from room_agents a join rooms r on r.region_id = a.region_id
           where r.id = ? and a.state = 'active'`,
          [roomId],
        )
      ).map((row) => row.id);
    const reachable = candidates.filter((agentId) => !this.unreachable.has(agentId));
    return reachable.length > 0 ? reachable : among;
  }

  async stop(roomId: string, ending?: TRoomEnding): Promise<void> {
    const em = this.options.orm.em.fork();
    const run = await fleet.liveRunOf(em, roomId);
    if (!run) {
      // A lost room waiting to be started again: stopped by its owner, it stays stopped (the restart finds no
      // lost run to bring back).
      const lost = await fleet.lostRunOf(em, roomId);
      if (lost) await fleet.giveUpRun(em, lost.run);
      // Not a fleet run (a test's engine started it directly, or it already ended): the local engine's to stop.
      await this.options.local?.engine.stop(roomId, ending);
      return;
    }
    const agent = await fleet.agentById(em, run.agentId);
    try {
      if (agent) await this.linkTo(agent.id, agent.address).stop(roomId, ending);
    } catch (error) {
      // An agent that cannot be reached has lost its browsers or will be declared lost: the run ends here.
      this.options.log.warn(
        { err: error, roomId, agentId: run.agentId },
        'the room agent did not answer a stop',
      );
    }
    await fleet.endRun(this.options.orm.em.fork(), run.id, run.epoch, this.now());
    this.forget(roomId, run.agentId);
    // The local engine tells of its own rooms itself.
    if (!this.options.local?.agentIds().has(run.agentId)) {
      this.emit({ roomId, state: 'stopped', reason: 'requested', ending });
    }
  }

  state(roomId: string): TRoomRuntimeState {
    const where = this.where.get(roomId);
    const local = this.options.local;
    if (!where || local?.agentIds().has(where.agentId)) return local?.engine.state(roomId) ?? 'stopped';
    return where.state === 'starting' || where.state === 'running' ? where.state : 'stopped';
  }

  /** Forgets the room's kept profile (the room is deleted, stopped already). */
  async deleteData(roomId: string): Promise<void> {
    if (this.options.local) await this.options.local.engine.deleteData(roomId);
    else await this.options.profiles?.delete(roomId);
  }

  /** This process's own rooms (what /serverstate shows of it); the fleet's are in the agents' heartbeats. */
  capacity(): { running: number; max: number } {
    return this.options.local?.engine.capacity() ?? { running: 0, max: 0 };
  }

  onStateChange(listener: (change: TRoomStateChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  mediaStats(roomId: string): TRoomMediaStats | null {
    return this.options.local?.engine.mediaStats(roomId) ?? null;
  }

  close(): void {
    this.stopWatching?.();
  }

  private linkTo(agentId: string, address: string): TAgentLink {
    const local = this.options.local;
    if (local?.agentIds().has(agentId)) return local.runs;
    if (!this.options.caller) throw new Error('only a control plane orders another agent');
    return httpAgentLink(address, this.options.caller);
  }

  private runChanged(key: string): void {
    const [roomId, agentId, state] = key.split(':') as [string, string, RoomRunState];
    if (!roomId || !agentId || !state) return;
    const before = this.state(roomId);
    if (isLive(state)) this.where.set(roomId, { agentId, state });
    else this.forget(roomId, agentId);
    const after = this.state(roomId);
    // The local engine tells of its own rooms itself.
    if (after !== before && !this.options.local?.agentIds().has(agentId)) this.emit({ roomId, state: after });
  }

  /** The room's run on that agent is over (a newer run elsewhere stays). */
  private forget(roomId: string, agentId: string): void {
    if (this.where.get(roomId)?.agentId === agentId) this.where.delete(roomId);
  }

  private async reload(): Promise<void> {
    try {
      const rows = await this.options.orm.em
        .fork()
        .execute<{ room_id: string; agent_id: string; state: RoomRunState }[]>(
          `select room_id, agent_id, state from room_runs where state in ('starting', 'running')`,
        );
      this.where.clear();
      for (const row of rows) this.where.set(row.room_id, { agentId: row.agent_id, state: row.state });
    } catch (error) {
      this.options.log.warn({ err: error }, 'could not read where the rooms run');
    }
  }

  private emit(change: TRoomStateChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
