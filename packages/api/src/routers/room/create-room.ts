import { createOwnedRoom } from '../../domains/rooms';
import { protectedProcedure } from '../../trpc';
import { ZCreateRoomRequest } from './create-room.types';
import { ZRoomInfo } from './room.types';

export const createRoom = protectedProcedure
  .meta({
    summary: 'Create a room (stopped); its zone, image and limits are checked against the caller’s plan.',
  })
  .input(ZCreateRoomRequest)
  .output(ZRoomInfo)
  .mutation(({ ctx, input }) => createOwnedRoom(ctx, ctx.session.user.id, input));
