// Starting and stopping a room's browser through the engine. After each step the room row takes the engine's
// own answer (not what was asked for), so a start that failed or a browser that died shows as it is.
import type { EntityManager } from '@mikro-orm/postgresql';
import { planOf, Room } from '@rooms/db';
import type { TContext, TServices } from '../../context';
import { AppError } from '../../errors';
import type { TRoomEnding } from '../../room-protocol/system';
import type { TRoomStateReply } from '../../routers/room/room.types';
import { chargeRoomStop, hasTimeLeft, METER_MAX_SECONDS, quotaOf } from '../billing';
import { launchSpecOf } from './room-settings';
import { recordRoomState } from './room-state';

/** What starting a room needs: a request's context, or the server's own at start-up (resumeRoom). */
type TLaunchContext = { em: EntityManager; services: Pick<TServices, 'rooms' | 'now'> };

function recordState(ctx: TLaunchContext, room: Room): Promise<void> {
  return recordRoomState(ctx.em, room, ctx.services.rooms.state(room.id));
}

export function stateReply(room: Room): TRoomStateReply {
  return { id: room.id, name: room.name, state: room.state };
}

/**
 * Starts the room unless it already runs. Engine errors (SERVER_FULL, ROOM_START_FAILED) pass through as they are.
 * `retried`: the fleet brings back a lost room and tries again after a failure, so a failed try leaves the room
 * starting instead of storing it stopped, which would end its session (its bans) before the next try.
 */
export async function launchRoom(
  ctx: TLaunchContext,
  room: Room,
  options: { retried?: boolean } = {},
): Promise<void> {
  const engine = ctx.services.rooms;
  const current = engine.state(room.id);
  if (current === 'running' || current === 'starting') return recordState(ctx, room);
  // A crashed browser may leave a process or profile lock behind; stopping first lets the start begin clean.
  if (current === 'crashed') await engine.stop(room.id);

  const now = ctx.services.now();
  // Billing: a room runs on its owner's room time; with none left it does not start (the metering job stops
  // the ones running when it runs out).
  if (!hasTimeLeft(await quotaOf(ctx.em, room.owner.id, now))) throw new AppError('QUOTA_EXHAUSTED');
  const spec = launchSpecOf(room, await planOf(ctx.em, room.owner.id, now));
  await recordRoomState(ctx.em, room, 'starting');
  try {
    await engine.start(spec);
    room.lastStartedAt = now;
  } catch (error) {
    if (!options.retried) await recordState(ctx, room);
    throw error;
  }
  await recordState(ctx, room);
}

/** Stops the room; `ending` is what its members are told (who stopped it, whether it comes back at once). */
export async function haltRoom(ctx: TContext, room: Room, ending?: TRoomEnding): Promise<void> {
  if (room.state === 'running' || room.state === 'starting') {
    // Billing: the time since the last metering tick is charged now. Best effort: metering never keeps a room
    // from stopping (the next tick would not charge a stopped room, so at most a minute goes unbilled).
    await chargeRoomStop(ctx.em, room, ctx.services.now(), METER_MAX_SECONDS).catch(() => {});
  }
  try {
    await ctx.services.rooms.stop(room.id, ending);
  } finally {
    await recordState(ctx, room);
  }
}

/** Asks the engine for the truth and stores it (the dashboard's refresh). */
export function refreshRoomState(ctx: TContext, room: Room): Promise<void> {
  return recordState(ctx, room);
}

/**
 * Starts again a room that was running when its server went down (a restart or a crash), as its owner's start
 * would, room time and plan included; its members' pages are waiting and join as soon as it runs. Resolves to
 * whether it runs.
 */
export async function resumeRoom(ctx: TLaunchContext, roomId: string): Promise<boolean> {
  const room = await ctx.em.findOne(Room, { id: roomId }, { populate: ['region', 'image', 'owner'] });
  if (!room || room.owner.disabled) return false;
  await launchRoom(ctx, room, { retried: true });
  return room.state === 'running';
}

/** Deletes the room: its browser stopped, its kept browser data removed, then its row. Not undone. */
export async function removeRoom(ctx: TContext, room: Room): Promise<{ id: string; name: string }> {
  await haltRoom(ctx, room);
  // The profile goes before the row: if removing it fails, the room is still there to delete again.
  await ctx.services.rooms.deleteData(room.id);
  const removed = { id: room.id, name: room.name };
  await ctx.em.remove(room).flush();
  return removed;
}
