import { findOwnedRoom, haltRoom, launchRoom, stateReply } from '../../domains/rooms';
import { ROOM_START_ERRORS } from '../../rest/rest-meta';
import { protectedProcedure } from '../../trpc';
import { ZRoomStateReply, ZRoomTarget } from './room.types';

export const restartRoom = protectedProcedure
  .meta({
    rest: {
      method: 'POST',
      path: '/api/room/restartRoom',
      tag: 'Room',
      errors: ['ROOM_NOT_FOUND', ...ROOM_START_ERRORS],
      queryParameters: true,
    },
  })
  .meta({ summary: 'Stop and start the room’s browser again; recovers a crashed room.' })
  .input(ZRoomTarget)
  .output(ZRoomStateReply)
  .mutation(async ({ ctx, input }) => {
    const room = await findOwnedRoom(ctx.em, ctx.session.user.id, input);
    await haltRoom(ctx, room, { reason: 'restarting', by: ctx.session.user.username });
    await launchRoom(ctx, room);
    return stateReply(room);
  });
