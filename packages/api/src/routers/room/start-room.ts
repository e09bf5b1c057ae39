import { findOwnedRoom, launchRoom, stateReply } from '../../domains/rooms';
import { ROOM_START_ERRORS } from '../../rest/rest-meta';
import { protectedProcedure } from '../../trpc';
import { ZRoomStateReply, ZRoomTarget } from './room.types';

export const startRoom = protectedProcedure
  .meta({
    rest: {
      method: 'POST',
      path: '/api/room/startRoom',
      tag: 'Room',
      errors: ['ROOM_NOT_FOUND', ...ROOM_START_ERRORS],
      queryParameters: true,
    },
  })
  .meta({ summary: 'Start the room’s browser (a no-op when it runs); fails when this server is full.' })
  .input(ZRoomTarget)
  .output(ZRoomStateReply)
  .mutation(async ({ ctx, input }) => {
    const room = await findOwnedRoom(ctx.em, ctx.session.user.id, input);
    await launchRoom(ctx, room);
    return stateReply(room);
  });
