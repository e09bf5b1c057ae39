import { findRoomById, roomConfigOf } from '../../domains/rooms';
import { AppError } from '../../errors';
import { protectedProcedure } from '../../trpc';
import { ZGetRoomConfigRequest, ZRoomConfig } from './get-room-config.types';

export const getRoomConfig = protectedProcedure
  .meta({ rest: { method: 'GET', path: '/api/room/getRoomConfig', tag: 'Room', errors: ['ROOM_NOT_FOUND'] } })
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
    return roomConfigOf(ctx, room, isOwner);
  });
