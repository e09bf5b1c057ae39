// The control plane's part of the fleet: every couple of seconds it sweeps out agents that fell silent (their
// runs are lost) and starts lost rooms again on agents that serve, as their owners' starts would. Several control
// plane processes may do it side by side: the sweep locks the agents, and a second start of the same room gets
// the run the first one placed.
import type { MikroORM } from '@mikro-orm/postgresql';
import { AppError, describeError, fleet, type RoomEngine, resumeRoom } from '@rooms/api';

interface TLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface TFleetDutiesOptions {
  orm: MikroORM;
  rooms: RoomEngine;
  log: TLog;
  now?: () => Date;
}

/** Refusals that will not change by waiting: the room is given up at once. */
const FINAL = new Set(['ROOM_NOT_FOUND', 'QUOTA_EXHAUSTED']);

export function startFleetDuties(options: TFleetDutiesOptions): { close(): Promise<void> } {
  const { orm, rooms, log } = options;
  const now = options.now ?? (() => new Date());
  /** When each lost run was first seen here, for giving up on it. */
  const firstSeen = new Map<string, number>();
  let closed = false;
  let busy: Promise<void> = Promise.resolve();

  const restart = async (run: fleet.TRun) => {
    const seen = firstSeen.get(run.id) ?? Date.now();
    firstSeen.set(run.id, seen);
    let outcome: string;
    try {
      await resumeRoom({ em: orm.em.fork(), services: { rooms, now } }, run.roomId);
      // Started here, or by another control plane meanwhile; no live run means the room may not run (deleted,
      // its owner disabled).
      const live = await fleet.liveRunOf(orm.em.fork(), run.roomId);
      if (!live) throw new AppError('ROOM_NOT_FOUND');
      log.info({ roomId: run.roomId, lostEpoch: run.epoch, epoch: live.epoch }, 'lost room started again');
      firstSeen.delete(run.id);
      return;
    } catch (error) {
      outcome = describeError(error).appCode ?? 'ROOM_START_FAILED';
    }
    if (FINAL.has(outcome) || Date.now() - seen > fleet.RESTART_GIVE_UP_MS) {
      log.warn({ roomId: run.roomId, why: outcome }, 'lost room given up: it waits for its owner');
      await fleet.giveUpRun(orm.em.fork(), run);
      firstSeen.delete(run.id);
    }
  };

  const tick = async () => {
    const swept = await fleet.markLostAgents(orm.em.fork(), now());
    if (swept.agentIds.length > 0) log.info({ agents: swept.agentIds }, 'silent room agents marked lost');
    const lost = await fleet.lostRuns(orm.em.fork());
    for (const run of lost) {
      if (closed) return;
      await restart(run);
    }
  };

  const timer = setInterval(() => {
    if (closed) return;
    busy = busy.then(tick).catch((error: unknown) => log.warn({ err: error }, 'fleet duties failed'));
  }, fleet.LOST_SWEEP_INTERVAL_MS);
  timer.unref();

  return {
    async close() {
      closed = true;
      clearInterval(timer);
      await busy;
    },
  };
}
