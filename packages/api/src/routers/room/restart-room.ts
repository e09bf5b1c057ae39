import { findOwnedRoom, haltRoom, launchRoom, stateReply } from '../../domains/rooms';
import { protectedProcedure } from '../../trpc';
import { ZRoomStateReply, ZRoomTarget } from './room.types';

export const restartRoom = protectedProcedure
  .meta({ summary: 'Stop and start the room’s browser again; recovers a crashed room.' })
  .input(ZRoomTarget)
  .output(ZRoomStateReply)
  .mutation(async ({ ctx, input }) => {
    const room = await findOwnedRoom(ctx.em, ctx.session.user.id, input);
    await haltRoom(ctx, room, { reason: 'restarting', by: ctx.session.user.username });
    await launchRoom(ctx, room);
    return stateReply(room);
  });
