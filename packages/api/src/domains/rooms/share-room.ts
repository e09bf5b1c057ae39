// Finding a room for someone who is not (necessarily) its owner: by id or name, then the sharing rules; what its
// visitors see of it, and its owner's share settings.
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Room } from '@rooms/db';
import type { TContext } from '../../context';
import { AppError, describeError } from '../../errors';
import type { TRoomInfo } from '../../routers/room/room.types';
import type { TSharedRoomInfo } from '../../routers/room/share.types';
import type { TCaptchaFields } from '../../schemas/captcha';
import { findRoomById, findRoomByName, toRoomInfo } from './room-access';
import { checkShareAccess, refuseAsPasswordRoom, type TShareAccess } from './share-access';
import { sharePasswordColumns } from './share-password';

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

/**
 * The room, once the caller proved they may enter it (owner, public, or the password). With `asPasswordRoom`, a
 * missing room and a hidden one (private, no password) answer exactly as a room whose password is wrong or
 * missing, so the lobby, which takes a name, cannot be used to find out which rooms exist.
 */
export async function enterableRoom(
  ctx: TContext,
  target: { id?: string | undefined; name?: string | undefined },
  password: string | undefined,
  options: {
    asPasswordRoom?: boolean;
    captcha?: TCaptchaFields | undefined;
    knock?: string | undefined;
  } = {},
): Promise<{ room: Room; access: TShareAccess }> {
  const caller = { ip: ctx.request.ip, userId: ctx.session?.user.id ?? null };
  const limiter = ctx.services.rateLimiter;
  const fields = options.captcha;
  const check = {
    hasher: ctx.services.passwords,
    captcha: fields ? () => ctx.services.captcha.verify(fields) : undefined,
  };
  try {
    const room = await findShareRoom(ctx.em, target);
    const access = await checkShareAccess(
      limiter,
      caller,
      {
        id: room.id,
        ownerId: room.owner.id,
        isPublic: room.isPublic,
        password: room.password ?? null,
        knockToken: room.knockToken ?? null,
      },
      password,
      check,
      options.knock,
    );
    return { room, access };
  } catch (error) {
    if (options.asPasswordRoom && describeError(error).appCode === 'ROOM_NOT_FOUND') {
      const asked = target.id !== undefined ? `id:${target.id}` : `name:${(target.name ?? '').toLowerCase()}`;
      return refuseAsPasswordRoom(limiter, caller, asked, password, check);
    }
    throw error;
  }
}

/** A shared room as its visitors see it before entering: never the password, never the owner's settings. */
export function toSharedRoomInfo(room: Room, memberCount: number): TSharedRoomInfo {
  return {
    id: room.id,
    name: room.name,
    remark: room.remark,
    owner: room.owner.username,
    state: room.state,
    isPublic: room.isPublic,
    hasPassword: room.password !== null && room.password !== undefined,
    region: { code: room.region.code, name: room.region.name },
    maxConnections: room.maxConnections,
    memberCount,
  };
}

/**
 * The owner changes or clears the share password (undefined: unchanged), and lists or unlists the room in the
 * public square, and turns knocking on (a new knock link, or the one it has) or off (its link stops working, and a
 * new one is made when it is turned on again). People already in the room stay; new ones need the new password.
 * The owner's view of it after.
 */
export async function changeShareSettings(
  ctx: Pick<TContext, 'em' | 'services'>,
  room: Room,
  change: {
    password?: string | null | undefined;
    isPublic?: boolean | undefined;
    knocking?: boolean | undefined;
  },
): Promise<TRoomInfo> {
  if (change.password !== undefined)
    Object.assign(room, await sharePasswordColumns(change.password, ctx.services));
  if (change.isPublic !== undefined) room.isPublic = change.isPublic;
  if (change.knocking === false) room.knockToken = null;
  else if (change.knocking === true) room.knockToken ??= randomBytes(18).toString('base64url');
  await ctx.em.flush();
  return toRoomInfo(room, ctx.services);
}
