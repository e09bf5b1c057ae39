// What billing does to running rooms on its own: stops them when their owner's time runs out, and stops the ones
// beyond the plan's limits when a plan lapses to Free. Each time the owner gets a notice saying why.
import type { EntityManager } from '@mikro-orm/postgresql';
import { BillingNotice, type BillingNoticeKind, type Plan, planOf, Room } from '@rooms/db';
import type { RoomEngine } from '../../services/room-engine';
import { effectiveSettings } from '../rooms/room-settings';
import { storeRoomStates } from '../rooms/room-state';
import { advanceMeter, chargeTime, hasTimeLeft, liveRooms } from './usage';

interface TLog {
  warn(object: object, message: string): void;
}

export interface TEnforcementDeps {
  em: EntityManager;
  rooms: RoomEngine;
  now: Date;
  log?: TLog;
}

/** Stops the rooms on this server's engine and stores the engine's answer. */
async function stopRooms({ em, rooms, log }: TEnforcementDeps, roomIds: string[]): Promise<number> {
  let stopped = 0;
  for (const id of roomIds) {
    try {
      await rooms.stop(id, { reason: 'time-up', by: null });
      stopped += 1;
    } catch (error) {
      log?.warn({ err: error, roomId: id }, 'billing could not stop a room');
    } finally {
      await storeRoomStates(em, id, rooms.state(id));
    }
  }
  return stopped;
}

export async function notify(
  em: EntityManager,
  userId: string,
  kind: BillingNoticeKind,
  details: { planName?: string; roomsStopped?: number } = {},
): Promise<void> {
  em.create(BillingNotice, {
    user: userId,
    kind,
    planName: details.planName ?? '',
    roomsStopped: details.roomsStopped ?? 0,
    readAt: null,
  });
  await em.flush();
}

/**
 * One metering tick: every live room's time since its last charge goes to its owner's quota; an owner with no
 * time left has all their live rooms stopped and is told. `maxSeconds` bounds one charge (see advanceMeter).
 */
export async function meterRunningRooms(
  deps: TEnforcementDeps,
  maxSeconds: number,
): Promise<{ charged: number; stopped: number }> {
  const { em, now } = deps;
  const byOwner = new Map<string, number>();
  for (const room of await liveRooms(em)) {
    const seconds = await advanceMeter(em, room, now, maxSeconds);
    byOwner.set(room.ownerId, (byOwner.get(room.ownerId) ?? 0) + seconds);
  }
  let charged = 0;
  let stopped = 0;
  for (const [userId, seconds] of byOwner) {
    charged += seconds;
    const left = await chargeTime(em, userId, seconds, now);
    if (hasTimeLeft(left)) continue;
    const ids = (await liveRooms(em, userId)).map((room) => room.id);
    const count = await stopRooms(deps, ids);
    stopped += count;
    if (count > 0) await notify(em, userId, 'quota-exhausted', { roomsStopped: count });
  }
  return { charged, stopped };
}

/** Charges a room's last stretch when its owner stops it, so stopping between ticks is not free time. */
export async function chargeRoomStop(
  em: EntityManager,
  room: Room,
  now: Date,
  maxSeconds: number,
): Promise<void> {
  const seconds = await advanceMeter(em, room, now, maxSeconds);
  if (seconds > 0) await chargeTime(em, room.owner.id, seconds, now);
}

function exceedsPlan(room: Room, plan: Plan): boolean {
  const bounded = effectiveSettings(room, plan);
  return (
    bounded.width !== room.width ||
    bounded.height !== room.height ||
    bounded.maxFrameRate !== room.maxFrameRate ||
    bounded.videoBitrateKbps !== room.videoBitrateKbps ||
    bounded.maxConnections !== room.maxConnections ||
    bounded.keepData !== room.keepData ||
    !plan.regionCodes.includes(room.region.code)
  );
}

/**
 * After a plan lapsed: the owner's live rooms whose settings the plan now held does not allow stop, and so do the
 * newest ones beyond its room count. Returns how many stopped.
 */
export async function stopRoomsBeyondPlan(deps: TEnforcementDeps, userId: string): Promise<number> {
  const { em, now } = deps;
  const plan = await planOf(em, userId, now);
  const live = await em.find(
    Room,
    { owner: userId, state: { $in: ['starting', 'running'] } },
    { populate: ['region'], orderBy: { lastStartedAt: 'asc' } },
  );
  const over = live.filter((room) => exceedsPlan(room, plan));
  const within = live.filter((room) => !exceedsPlan(room, plan));
  const beyondCount = within.slice(plan.maxRooms);
  return stopRooms(
    deps,
    [...over, ...beyondCount].map((room) => room.id),
  );
}
