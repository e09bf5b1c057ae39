import { findOwnedRoom, haltRoom, stateReply } from '../../domains/rooms';
import { protectedProcedure } from '../../trpc';
import { ZRoomStateReply, ZRoomTarget } from './room.types';

export const stopRoom = protectedProcedure
  .meta({
    rest: {
      method: 'POST',
      path: '/api/room/stopRoom',
      tag: 'Room',
      errors: ['ROOM_NOT_FOUND'],
      queryParameters: true,
    },
  })
  .meta({ summary: 'Stop the room’s browser; participants are disconnected. A stopped room stays stopped.' })
  .input(ZRoomTarget)
  .output(ZRoomStateReply)
  .mutation(async ({ ctx, input }) => {
    const room = await findOwnedRoom(ctx.em, ctx.session.user.id, input);
    await haltRoom(ctx, room, { reason: 'stopped', by: ctx.session.user.username });
    return stateReply(room);
  });
