import { z } from 'zod';
import { findOwnedRoom, toRoomInfo } from '../../domains/rooms';
import { protectedProcedure } from '../../trpc';
import { ZRoomInfo } from './room.types';

export const getRoomInfo = protectedProcedure
  .meta({ rest: { method: 'GET', path: '/api/room/getRoomInfo', tag: 'Room', errors: ['ROOM_NOT_FOUND'] } })
  .meta({ summary: 'One of the caller’s rooms by name, with its share password (the owner’s view).' })
  .input(z.object({ name: z.string({ error: 'Please choose a room' }).trim().min(1).max(64) }))
  .output(ZRoomInfo)
  .query(async ({ ctx, input }) => {
    return toRoomInfo(await findOwnedRoom(ctx.em, ctx.session.user.id, { name: input.name }), ctx.services);
  });
