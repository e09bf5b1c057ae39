// Finding a room on behalf of a caller, and the views of it the procedures return.
import type { EntityManager } from '@mikro-orm/postgresql';
import { Room } from '@rooms/db';
import type { TServices } from '../../context';
import { AppError } from '../../errors';
import { isUuid } from '../../schemas/common';
import type { TRoomInfo, TRoomListItem, TRoomTarget } from './room.types';
import { ownersSharePassword } from './share-password';

/** A case-insensitive exact match: names are unique regardless of case, and `_` is a LIKE wildcard. */
export function roomNameFilter(name: string) {
  return { $ilike: name.replace(/[\\%_]/g, '\\$&') };
}

const populate = ['region', 'image', 'owner'] as const;

/**
 * The caller's own room by id and/or name. Another user's room, and an id that is not even a UUID, answer
 * ROOM_NOT_FOUND exactly like a missing room, so probing tells nothing.
 */
export async function findOwnedRoom(em: EntityManager, ownerId: string, target: TRoomTarget): Promise<Room> {
  if (target.id !== undefined && !isUuid(target.id)) throw new AppError('ROOM_NOT_FOUND');
  const room = await em.findOne(
    Room,
    {
      owner: ownerId,
      ...(target.id !== undefined ? { id: target.id } : {}),
      ...(target.name !== undefined ? { name: roomNameFilter(target.name) } : {}),
    },
    { populate },
  );
  if (!room) throw new AppError('ROOM_NOT_FOUND');
  return room;
}

/** Any room by id, for the participant's view; the caller decides who may see it. */
export async function findRoomById(em: EntityManager, id: string): Promise<Room | null> {
  if (!isUuid(id)) return null;
  return em.findOne(Room, { id }, { populate });
}

/** Any room by name (case-insensitive, like the uniqueness rule); the caller decides who may see it. */
export async function findRoomByName(em: EntityManager, name: string): Promise<Room | null> {
  if (!name) return null;
  return em.findOne(Room, { name: roomNameFilter(name) }, { populate });
}

/** `memberCount`: people inside now (the dashboard asks before stopping a room with people in it). */
export function toListItem(room: Room, memberCount: number): TRoomListItem {
  return {
    memberCount,
    id: room.id,
    name: room.name,
    remark: room.remark,
    hasPassword: room.password !== null && room.password !== undefined,
    state: room.state,
    isPublic: room.isPublic,
    region: { code: room.region.code, name: room.region.name },
    image: { code: room.image.code, name: room.image.name, kind: room.image.kind },
    startUrl: room.startUrl ?? null,
    maxConnections: room.maxConnections,
    width: room.width,
    height: room.height,
    videoBitrateKbps: room.videoBitrateKbps,
    maxFrameRate: room.maxFrameRate,
    keepData: room.keepData,
    autoClose: room.autoClose,
    autoCloseMinutes: room.autoCloseMinutes,
    owner: room.owner.username,
    createdAt: room.createdAt,
    lastStartedAt: room.lastStartedAt ?? null,
  };
}

/** The owner's view: with the share password, read back from its sealed copy. */
export function toRoomInfo(room: Room, services: Pick<TServices, 'secretBox' | 'presence'>): TRoomInfo {
  return {
    ...toListItem(room, services.presence.memberCount(room.id)),
    password: ownersSharePassword(room, services),
  };
}
