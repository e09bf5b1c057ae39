// Creating a room for its owner: the zone, the image and every setting checked against the owner's plan, the
// share password hashed, and the plan's room count held under a lock on the owner.
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { planOf, Region, Room, SystemImage, User } from '@rooms/db';
import type { TContext } from '../../context';
import { AppError } from '../../errors';
import type { TCreateRoomRequest } from '../../routers/room/create-room.types';
import type { TRoomInfo } from '../../routers/room/room.types';
import { roomNameFilter, toRoomInfo } from './room-access';
import { checkAgainstPlan, ROOM_DEFAULTS, streamDefaultsFor } from './room-settings';
import { sharePasswordColumns } from './share-password';

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Creates the owner's room (stopped) as asked, a field left out taking the plan's default; the owner's view of it. */
export async function createOwnedRoom(
  ctx: Pick<TContext, 'em' | 'services'>,
  userId: string,
  input: TCreateRoomRequest,
): Promise<TRoomInfo> {
  const plan = await planOf(ctx.em, userId, ctx.services.now());

  const region = await ctx.em.findOne(Region, { code: input.region, enabled: true });
  if (!region) throw new AppError('ROOM_ZONE_UNAVAILABLE');
  if (!plan.regionCodes.includes(region.code)) {
    throw new AppError('PLAN_ZONE_NOT_ALLOWED', { args: [region.name] });
  }
  const image = await ctx.em.findOne(SystemImage, { code: input.image, enabled: true });
  if (!image) throw new AppError('ROOM_IMAGE_UNAVAILABLE');
  // Only 'url' images open the room's own address; for the others it would be ignored, so it is not kept.
  const startUrl = image.kind === 'url' ? input.startUrl : null;
  if (image.kind === 'url' && !(startUrl && isHttpUrl(startUrl))) {
    throw new AppError('ROOM_START_URL_REQUIRED');
  }

  const stream = streamDefaultsFor(plan);
  const limits = {
    maxConnections: input.maxConnections ?? stream.maxConnections,
    width: input.width ?? stream.width,
    height: input.height ?? stream.height,
    maxFrameRate: input.maxFrameRate ?? stream.maxFrameRate,
    videoBitrateKbps: input.videoBitrateKbps ?? stream.videoBitrateKbps,
    keepData: input.keepData ?? ROOM_DEFAULTS.keepData,
    autoClose: input.autoClose ?? ROOM_DEFAULTS.autoClose,
    autoCloseMinutes: input.autoCloseMinutes ?? ROOM_DEFAULTS.autoCloseMinutes,
  };
  checkAgainstPlan(plan, limits);
  // Hashed before the transaction: argon2 takes a while, and the owner's row is locked inside it.
  const sharePassword = await sharePasswordColumns(input.password, ctx.services);

  try {
    const id = await ctx.em.transactional(async (tx) => {
      // Locking the owner serialises their concurrent creates, so two at once cannot both pass the count.
      await tx.findOneOrFail(User, userId, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if ((await tx.count(Room, { owner: userId })) >= plan.maxRooms) {
        throw new AppError('PLAN_MAX_ROOMS', { args: [plan.maxRooms] });
      }
      if (await tx.count(Room, { name: roomNameFilter(input.name) })) throw new AppError('ROOM_NAME_TAKEN');
      const room = tx.create(Room, {
        name: input.name,
        remark: input.remark,
        ...sharePassword,
        isPublic: input.isPublic,
        region: region.id,
        image: image.id,
        startUrl,
        owner: userId,
        ...limits,
      });
      await tx.flush();
      return room.id;
    });
    const room = await ctx.em.findOneOrFail(Room, id, { populate: ['region', 'image', 'owner'] });
    return toRoomInfo(room, ctx.services);
  } catch (error) {
    // Two owners racing for one name: the unique index decides, and the loser hears it plainly.
    if (error instanceof UniqueConstraintViolationException) throw new AppError('ROOM_NAME_TAKEN');
    throw error;
  }
}
