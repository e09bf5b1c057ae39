// Rooms as the administrator sees them: every running room with its owner, members, uptime and stream, and a stop
// that works on anyone's room. A stop charges the time since the last metering tick, as the owner's own stop does.
import type { EntityManager } from '@mikro-orm/postgresql';
import { Room } from '@rooms/db';
import { AppError } from '../../errors';
import type { TRoomEnding } from '../../room-protocol/system';
import type { RoomPresence } from '../../services/ports';
import type { RoomEngine } from '../../services/room-engine';
import { chargeRoomStop, METER_MAX_SECONDS } from '../billing';
import { storeRoomStates } from '../rooms/room-state';
import { recordAudit, type TActor } from './audit';

interface TStopDeps {
  em: EntityManager;
  rooms: RoomEngine;
  now: Date;
  log?: { warn(object: object, message: string): void };
}

/**
 * Stops rooms on this server's engine and stores each one's resulting state; returns how many stopped. `ending`
 * is what their members are told: an administrator stopped it, unless said otherwise.
 */
export async function stopRooms(
  deps: TStopDeps,
  roomIds: readonly string[],
  ending: TRoomEnding = { reason: 'moderation', by: null },
): Promise<number> {
  let stopped = 0;
  for (const id of roomIds) {
    try {
      const room = await deps.em.findOne(Room, id);
      if (room && (room.state === 'running' || room.state === 'starting')) {
        // Best effort, as for the owner's stop: metering never keeps a room from stopping.
        await chargeRoomStop(deps.em, room, deps.now, METER_MAX_SECONDS).catch(() => {});
      }
      await deps.rooms.stop(id, ending);
      stopped += 1;
    } catch (error) {
      deps.log?.warn({ err: error, roomId: id }, 'could not stop a room');
    } finally {
      await storeRoomStates(deps.em, id, deps.rooms.state(id));
    }
  }
  return stopped;
}

export interface TLiveRoomView {
  id: string;
  name: string;
  owner: { id: string; email: string; username: string };
  region: string;
  state: Room['state'];
  members: number;
  startedAt: Date | null;
  uptimeSeconds: number;
  mediaPath: string | null;
  fps: number | null;
}

/** Rooms that run (or start, or crashed and were not yet stopped), longest-running first. */
export async function liveRoomViews(deps: {
  em: EntityManager;
  rooms: RoomEngine;
  presence: RoomPresence;
  now: Date;
}): Promise<TLiveRoomView[]> {
  const live = await deps.em.find(
    Room,
    { state: { $in: ['starting', 'running', 'crashed'] } },
    { populate: ['owner', 'region'], orderBy: { lastStartedAt: 'asc', id: 'asc' } },
  );
  return live.map((room) => {
    const media = deps.rooms.mediaStats(room.id);
    const startedAt = room.lastStartedAt ?? null;
    return {
      id: room.id,
      name: room.name,
      owner: { id: room.owner.id, email: room.owner.email, username: room.owner.username },
      region: room.region.code,
      state: deps.rooms.state(room.id) === 'stopped' ? room.state : deps.rooms.state(room.id),
      members: deps.presence.memberCount(room.id),
      startedAt,
      uptimeSeconds: startedAt
        ? Math.max(0, Math.round((deps.now.getTime() - startedAt.getTime()) / 1000))
        : 0,
      mediaPath: media?.path ?? null,
      fps: media ? Math.round(media.fps * 10) / 10 : null,
    };
  });
}

export async function stopRoomAsAdmin(deps: TStopDeps & { actor: TActor }, roomId: string): Promise<Room> {
  const room = await deps.em.findOne(Room, roomId, { populate: ['owner'] });
  if (!room) throw new AppError('ROOM_NOT_FOUND');
  const before = room.state;
  await stopRooms(deps, [room.id]);
  await deps.em.refresh(room);
  recordAudit(deps.em, deps.actor, {
    action: 'room.stop',
    targetType: 'room',
    targetId: room.id,
    targetLabel: room.name,
    before: { state: before },
    after: { state: room.state },
  });
  await deps.em.flush();
  return room;
}
