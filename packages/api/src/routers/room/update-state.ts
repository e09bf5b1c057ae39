import { z } from 'zod';
import { findOwnedRoom, refreshRoomState, stateReply } from '../../domains/rooms';
import { protectedProcedure } from '../../trpc';
import { ZRoomStateReply } from './room.types';

export const updateState = protectedProcedure
  .meta({ rest: { method: 'GET', path: '/api/room/updateState', tag: 'Room', errors: ['ROOM_NOT_FOUND'] } })
  .meta({ summary: 'Refresh a room’s state from its browser (the truth) and store it.' })
  .input(z.object({ name: z.string({ error: 'Please choose a room' }).trim().min(1).max(64) }))
  .output(ZRoomStateReply)
  .query(async ({ ctx, input }) => {
    const room = await findOwnedRoom(ctx.em, ctx.session.user.id, { name: input.name });
    await refreshRoomState(ctx, room);
    return stateReply(room);
  });
