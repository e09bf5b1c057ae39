// A room agent's runs: the starts placement handed to this agent, each run on the agent's engine under its run id
// and epoch. The agent says when a run's browser is up (running) and when it ended on its own (a stop, an
// auto-close), behind the epoch fence, and stores the room's state only while no newer run of the room exists, so
// an agent the fleet gave up on cannot overwrite what the room's new agent says.
import type { MikroORM } from '@mikro-orm/postgresql';
import { AppError, fleet, type RoomEngine, type TRoomLaunchSpec, type TRoomRuntimeState } from '@rooms/api';
import type { TRoomEnding } from '@rooms/api/room-protocol';

/** What the control plane asks an agent to run. */
export interface TRunOrder {
  runId: string;
  epoch: number;
  spec: TRoomLaunchSpec;
}

interface TLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface TAgentRunsOptions {
  orm: MikroORM;
  engine: RoomEngine;
  log: TLog;
  now?: () => Date;
}

export class AgentRuns {
  /** The live run of each room on this agent. */
  private readonly live = new Map<string, { runId: string; epoch: number }>();
  /** The epoch of each room's latest run here, kept after it ends: its last state write is fenced by it. */
  private readonly epochs = new Map<string, number>();
  private readonly now: () => Date;
  private readonly stopWatching: () => void;

  constructor(private readonly options: TAgentRunsOptions) {
    this.now = options.now ?? (() => new Date());
    this.stopWatching = options.engine.onStateChange((change) => {
      // A shutdown's stops are not the room's end: the agent leaves the fleet, its runs are lost, and the control
      // plane starts the rooms again on an agent that serves.
      if (change.state === 'stopped' && change.ending?.reason !== 'server-restart') {
        void this.ended(change.roomId);
      }
    });
  }

  /** Runs the order on the engine and tells the fleet the run is up. Engine refusals pass through as AppErrors. */
  async start(order: TRunOrder): Promise<TRoomRuntimeState> {
    const { runId, epoch, spec } = order;
    const current = this.live.get(spec.roomId);
    if (current && current.epoch > epoch)
      throw new AppError('ROOM_START_FAILED', { message: 'A newer run exists' });
    this.live.set(spec.roomId, { runId, epoch });
    this.epochs.set(spec.roomId, epoch);
    try {
      await this.options.engine.start({ ...spec, epoch });
    } catch (error) {
      this.live.delete(spec.roomId);
      throw error;
    }
    const marked = await fleet.markRunRunning(this.options.orm.em.fork(), runId, epoch, this.now());
    if (!marked.ok) {
      // The room moved on while its browser started (stopped, or given to another agent): it must not run here.
      this.options.log.warn(
        { roomId: spec.roomId, epoch, reason: marked.reason },
        'run refused; stopping it',
      );
      await this.options.engine.stop(spec.roomId);
      throw new AppError('ROOM_START_FAILED', { message: 'The room was stopped while it started' });
    }
    return this.options.engine.state(spec.roomId);
  }

  stop(roomId: string, ending?: TRoomEnding): Promise<void> {
    return this.options.engine.stop(roomId, ending);
  }

  /** How many rooms run here under runs of the fleet. */
  count(): number {
    return this.live.size;
  }

  /** Whether the room runs here under a run of the fleet. */
  has(roomId: string): boolean {
    return this.live.has(roomId);
  }

  /** The epoch this agent's writes for the room carry; 0 for a room it never ran under a run. */
  epochOf(roomId: string): number {
    return this.epochs.get(roomId) ?? 0;
  }

  /** The ids of the runs live here now. */
  runIds(): Set<string> {
    return new Set([...this.live.values()].map((run) => run.runId));
  }

  /**
   * The runs of `candidates` the fleet no longer holds this agent to stop here, without a word to the fleet: the
   * agent was declared lost (a stall longer than the fleet's patience) and its rooms were given away, or the
   * room was stopped by a control plane whose order never arrived. Runs that started after `candidates` was taken
   * are not judged: the answer that left them out may predate them.
   */
  async abandonUnheld(candidates: ReadonlySet<string>, held: ReadonlySet<string>): Promise<void> {
    for (const [roomId, run] of [...this.live]) {
      if (!candidates.has(run.runId) || held.has(run.runId)) continue;
      this.live.delete(roomId);
      this.options.log.warn(
        { roomId, runId: run.runId },
        'the fleet no longer holds this agent to the room; stopping it',
      );
      await this.options.engine.stop(roomId, { reason: 'restarting', by: null }).catch(() => {});
    }
  }

  close(): void {
    this.stopWatching();
  }

  private async ended(roomId: string): Promise<void> {
    const run = this.live.get(roomId);
    if (!run) return;
    this.live.delete(roomId);
    try {
      await fleet.endRun(this.options.orm.em.fork(), run.runId, run.epoch, this.now());
    } catch (error) {
      // The lease lapses without heartbeats naming it... but heartbeats renew every live run of the agent, so
      // say it: the sweep cannot clear this one, the next stop of the room will.
      this.options.log.warn({ err: error, roomId }, 'could not end a room run in the fleet');
    }
  }
}
