import { findOwnedRoom, launchRoom, stateReply } from '../../domains/rooms';
import { protectedProcedure } from '../../trpc';
import { ZRoomStateReply, ZRoomTarget } from './room.types';

export const startRoom = protectedProcedure
  .meta({ summary: 'Start the room’s browser (a no-op when it runs); fails when this server is full.' })
  .input(ZRoomTarget)
  .output(ZRoomStateReply)
  .mutation(async ({ ctx, input }) => {
    const room = await findOwnedRoom(ctx.em, ctx.session.user.id, input);
    await launchRoom(ctx, room);
    return stateReply(room);
  });
