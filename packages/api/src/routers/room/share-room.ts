// Finding a room for someone who is not (necessarily) its owner: by id or name, then the sharing rules.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Room } from '@rooms/db';
import type { TContext } from '../../context';
import { AppError } from '../../errors';
import { findRoomById, findRoomByName } from './room-access';
import { checkShareAccess, type TShareAccess } from './share-access';

export async function findShareRoom(
  em: EntityManager,
  target: { id?: string | undefined; name?: string | undefined },
): Promise<Room> {
  const room =
    target.id !== undefined ? await findRoomById(em, target.id) : await findRoomByName(em, target.name ?? '');
  // Both given: they must name the same room, as for the owner's calls.
  if (!room || (target.name !== undefined && room.name.toLowerCase() !== target.name.toLowerCase())) {
    throw new AppError('ROOM_NOT_FOUND');
  }
  return room;
}

/** The room, once the caller proved they may enter it (owner, public, or the password). */
export async function enterableRoom(
  ctx: TContext,
  target: { id?: string | undefined; name?: string | undefined },
  password: string | undefined,
): Promise<{ room: Room; access: TShareAccess }> {
  const room = await findShareRoom(ctx.em, target);
  const access = await checkShareAccess(
    ctx.services.rateLimiter,
    { ip: ctx.request.ip, userId: ctx.session?.user.id ?? null },
    { id: room.id, ownerId: room.owner.id, isPublic: room.isPublic, password: room.password ?? null },
    password,
  );
  return { room, access };
}
