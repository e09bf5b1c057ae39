// The control plane's part of the fleet. Every couple of seconds it sweeps out agents that fell silent (their runs
// are lost) and puts each lost room on the job queue to be started again; a worker of any control plane takes the
// job and starts the room on an agent that serves, as its owner's start would. Rooms lost another way (an agent
// reported unreachable and confirmed, agent-reports.ts) are queued at once through `restartLost`. Several control planes may do it
// side by side: the sweep locks the agents, a room has one restart job at a time (its key), and a second start of
// the same room gets the run the first one placed. Once a minute a slice of the fleet's history older than a day
// is pruned (fleet.pruneFleet).
import type { MikroORM } from '@mikro-orm/postgresql';
import { describeError, fleet, type RoomEngine, resumeRoom } from '@rooms/api';
import type { TJobQueue } from '../services/job-queue';

interface TLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface TFleetDutiesOptions {
  orm: MikroORM;
  rooms: RoomEngine;
  jobs: TJobQueue;
  log: TLog;
  now?: () => Date;
}

export const ROOM_RESTARTS_QUEUE = 'fleet-room-restarts';

interface TRestartJob {
  roomId: string;
  runId: string;
}

/** Refusals that will not change by waiting: the room is given up at once. */
const FINAL = new Set(['ROOM_NOT_FOUND', 'QUOTA_EXHAUSTED']);
/** A full or empty zone is tried again this often, until the room has waited RESTART_GIVE_UP_MS. */
const RETRY_SECONDS = 5;
/** How often ended runs and lost agents older than fleet.FLEET_HISTORY_MS are pruned. */
const PRUNE_EVERY_MS = 60_000;

/** Lost rooms this control plane has dealt with since it started, for the metrics. */
export interface TFailoverCounts {
  /** Started again on another agent. */
  restarted: number;
  /** Left for their owner: they may not run, or no agent could take them in time. */
  givenUp: number;
}

export interface TFleetDuties {
  /** Queues every lost room's restart now and wakes this process's worker, instead of at the next sweep. */
  restartLost(): Promise<void>;
  failovers(): TFailoverCounts;
  close(): Promise<void>;
}

export async function startFleetDuties(options: TFleetDutiesOptions): Promise<TFleetDuties> {
  const { orm, rooms, jobs, log } = options;
  const now = options.now ?? (() => new Date());
  let closed = false;
  let busy: Promise<void> = Promise.resolve();
  const failovers: TFailoverCounts = { restarted: 0, givenUp: 0 };

  /** Throws to have the queue try again later. */
  const restart = async ({ roomId, runId }: TRestartJob) => {
    const lost = await fleet.lostRunOf(orm.em.fork(), roomId);
    // Started again meanwhile, or given up.
    if (lost?.run.id !== runId) return;
    let outcome: string;
    try {
      await resumeRoom({ em: orm.em.fork(), services: { rooms, now } }, roomId);
      // Started here, or by another control plane meanwhile; no live run means the room may not run (deleted,
      // its owner disabled).
      const live = await fleet.liveRunOf(orm.em.fork(), roomId);
      if (live) {
        log.info({ roomId, lostEpoch: lost.run.epoch, epoch: live.epoch }, 'lost room started again');
        failovers.restarted++;
        return;
      }
      outcome = 'ROOM_NOT_FOUND';
    } catch (error) {
      outcome = describeError(error).appCode ?? 'ROOM_START_FAILED';
    }
    if (FINAL.has(outcome) || now().getTime() - lost.lostAt.getTime() > fleet.RESTART_GIVE_UP_MS) {
      log.warn({ roomId, why: outcome }, 'lost room given up: it waits for its owner');
      await fleet.giveUpRun(orm.em.fork(), lost.run);
      failovers.givenUp++;
      return;
    }
    throw new Error(`the lost room could not start yet (${outcome}); trying again`);
  };

  await jobs.createQueue(ROOM_RESTARTS_QUEUE, {
    // One restart job per room, queued or running: the sweep's every tick may ask again without doubling it.
    policy: 'exclusive',
    retryLimit: Math.ceil(fleet.RESTART_GIVE_UP_MS / 1000 / RETRY_SECONDS) + 1,
    retryDelay: RETRY_SECONDS,
    expireInSeconds: 120,
  });
  // Polled as often as the sweep that queues the jobs: polling every 0.5 s cost every request of the process
  // (bench:api: REST userinfo p99 8 ms instead of 4).
  const worker = await jobs.work<TRestartJob>(
    ROOM_RESTARTS_QUEUE,
    { pollingIntervalSeconds: 2 },
    async ([job]) => {
      if (job) await restart(job.data);
    },
  );

  const queueLostRooms = async () => {
    for (const { run } of await fleet.lostRuns(orm.em.fork())) {
      if (closed) return;
      const job: TRestartJob = { roomId: run.roomId, runId: run.id };
      await jobs.send(ROOM_RESTARTS_QUEUE, job, { singletonKey: run.roomId });
    }
  };

  let lastPruned = 0;
  const tick = async () => {
    const swept = await fleet.markLostAgents(orm.em.fork(), now());
    if (swept.agentIds.length > 0) log.info({ agents: swept.agentIds }, 'silent room agents marked lost');
    await queueLostRooms();
    // A slice of the fleet's old history a minute: what piles up in a day goes in a few ticks.
    if (now().getTime() - lastPruned >= PRUNE_EVERY_MS) {
      lastPruned = now().getTime();
      const pruned = await fleet.pruneFleet(orm.em.fork(), now());
      if (pruned.runs + pruned.agents > 0) log.info(pruned, 'old fleet history pruned');
    }
  };

  const timer = setInterval(() => {
    if (closed) return;
    busy = busy.then(tick).catch((error: unknown) => log.warn({ err: error }, 'fleet sweep failed'));
  }, fleet.LOST_SWEEP_INTERVAL_MS);
  timer.unref();

  return {
    async restartLost() {
      if (closed) return;
      await queueLostRooms();
      // The worker would find the jobs at its next poll, up to 2 s later.
      jobs.notifyWorker(worker);
    },
    failovers: () => ({ ...failovers }),
    async close() {
      closed = true;
      clearInterval(timer);
      await busy;
      await jobs.offWork(ROOM_RESTARTS_QUEUE);
    },
  };
}
