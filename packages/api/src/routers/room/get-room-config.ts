import { planOf } from '@rooms/db';
import { AppError } from '../../errors';
import { protectedProcedure } from '../../trpc';
import { ZGetRoomConfigRequest, ZRoomConfig } from './get-room-config.types';
import { findRoomById } from './room-access';
import { effectiveSettings } from './room-settings';

export const getRoomConfig = protectedProcedure
  .meta({
    summary:
      'The launch and stream settings of a room a participant is entering: the owner’s rooms and public rooms.',
  })
  .input(ZGetRoomConfigRequest)
  .output(ZRoomConfig)
  .query(async ({ ctx, input }) => {
    const room = await findRoomById(ctx.em, input.id);
    const isOwner = room?.owner.id === ctx.session.user.id;
    // A private room of someone else answers as a missing one; shared links go through the password calls.
    if (!room || !(isOwner || room.isPublic)) throw new AppError('ROOM_NOT_FOUND');
    const settings = effectiveSettings(room, await planOf(ctx.em, room.owner.id, ctx.services.now()));
    return {
      id: room.id,
      name: room.name,
      state: room.state,
      owner: room.owner.username,
      isOwner,
      isPublic: room.isPublic,
      region: { code: room.region.code, name: room.region.name },
      image: { code: room.image.code, name: room.image.name, kind: room.image.kind },
      ...settings,
    };
  });
