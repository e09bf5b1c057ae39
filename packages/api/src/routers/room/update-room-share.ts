import { changeShareSettings, findOwnedRoom } from '../../domains/rooms';
import { protectedProcedure } from '../../trpc';
import { ZRoomInfo } from './room.types';
import { ZUpdateRoomShareRequest } from './share.types';

export const updateRoomShare = protectedProcedure
  .meta({
    rest: { method: 'POST', path: '/api/room/updateRoomShare', tag: 'Room', errors: ['ROOM_NOT_FOUND'] },
  })
  .meta({
    summary:
      'Change or clear a room’s share password, and list or unlist it in the public square. People already in the room stay; new ones need the new password.',
  })
  .input(ZUpdateRoomShareRequest)
  .output(ZRoomInfo)
  .mutation(async ({ ctx, input }) =>
    changeShareSettings(ctx, await findOwnedRoom(ctx.em, ctx.session.user.id, input), input),
  );
