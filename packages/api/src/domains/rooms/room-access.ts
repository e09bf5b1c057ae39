// Finding a room on behalf of a caller, and the views of it the procedures return.
import type { EntityManager } from '@mikro-orm/postgresql';
import { Room } from '@rooms/db';
import type { TServices } from '../../context';
import { AppError } from '../../errors';
import type { TRoomInfo, TRoomListItem, TRoomTarget } from '../../routers/room/room.types';
import { isUuid } from '../../schemas/common';
import type { RoomListCache } from './room-list-cache';
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
/** What a list item shows of a room: a loaded entity, or the dashboard's lean row (listOwnedRooms). */
export type TListedRoom = Pick<
  Room,
  | 'id'
  | 'name'
  | 'remark'
  | 'password'
  | 'state'
  | 'isPublic'
  | 'startUrl'
  | 'maxConnections'
  | 'width'
  | 'height'
  | 'videoBitrateKbps'
  | 'maxFrameRate'
  | 'keepData'
  | 'autoClose'
  | 'autoCloseMinutes'
  | 'createdAt'
  | 'lastStartedAt'
> & {
  region: Pick<Room['region'], 'code' | 'name'>;
  image: Pick<Room['image'], 'code' | 'name' | 'kind'>;
  owner: Pick<Room['owner'], 'username'>;
};

interface TRoomListRow {
  id: string;
  name: string;
  remark: string;
  has_password: boolean;
  state: Room['state'];
  is_public: boolean;
  start_url: string | null;
  max_connections: number;
  width: number;
  height: number;
  video_bitrate_kbps: number;
  max_frame_rate: number;
  keep_data: boolean;
  auto_close: boolean;
  auto_close_minutes: number;
  /** Timestamps come as text: the ORM's connection leaves their parsing to it. */
  created_at: string;
  last_started_at: string | null;
  region_code: string;
  region_name: string;
  image_code: string;
  image_name: string;
  image_kind: Room['image']['kind'];
}

/**
 * The owner's rooms, newest first, for the dashboard, which polls it: one indexed query read as plain rows, kept
 * between polls in `cache` (room-list-cache.ts says what evicts it).
 * Loading them as entities with their region, image and owner cost about five times as much, most of it in
 * hydration, on every poll of every open dashboard.
 */
export async function listOwnedRooms(
  em: () => EntityManager,
  owner: { id: string; username: string },
  cache: RoomListCache,
): Promise<TListedRoom[]> {
  const rooms = await cache.through(owner.id, () => readOwnedRooms(em(), owner.id));
  return rooms.map((room) => ({ ...room, owner: { username: owner.username } }));
}

/** A list item's room without its owner (the caller's own account supplies that). */
export type TOwnedRoom = Omit<TListedRoom, 'owner'>;

async function readOwnedRooms(em: EntityManager, ownerId: string): Promise<TOwnedRoom[]> {
  const rows = await em.execute<TRoomListRow[]>(
    `select r.id, r.name, r.remark, r.password is not null as has_password, r.state, r.is_public, r.start_url,
            r.max_connections, r.width, r.height, r.video_bitrate_kbps, r.max_frame_rate, r.keep_data,
            r.auto_close, r.auto_close_minutes, r.created_at, r.last_started_at,
            g.code as region_code, g.name as region_name, i.code as image_code, i.name as image_name,
            i.kind as image_kind
       from rooms r
       join regions g on g.id = r.region_id
       join system_images i on i.id = r.image_id
      where r.owner_id = ?
      order by r.created_at desc, r.id asc`,
    [ownerId],
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    remark: row.remark,
    // Only whether there is one: the hash never leaves the database on this path.
    password: row.has_password ? '' : null,
    state: row.state,
    isPublic: row.is_public,
    startUrl: row.start_url,
    maxConnections: row.max_connections,
    width: row.width,
    height: row.height,
    videoBitrateKbps: row.video_bitrate_kbps,
    maxFrameRate: row.max_frame_rate,
    keepData: row.keep_data,
    autoClose: row.auto_close,
    autoCloseMinutes: row.auto_close_minutes,
    createdAt: new Date(row.created_at),
    lastStartedAt: row.last_started_at === null ? null : new Date(row.last_started_at),
    region: { code: row.region_code, name: row.region_name },
    image: { code: row.image_code, name: row.image_name, kind: row.image_kind },
  }));
}

export function toListItem(room: TListedRoom, memberCount: number): TRoomListItem {
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
    knockToken: room.knockToken ?? null,
  };
}
