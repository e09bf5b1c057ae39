import { z } from 'zod';
import { listOwnedRooms, toListItem } from '../../domains/rooms';
import { protectedProcedure } from '../../trpc';
import { ZRoomListItem } from './room.types';

export const getRoomList = protectedProcedure
  .meta({ rest: { method: 'GET', path: '/api/room/getRoomList', tag: 'Room', errors: [] } })
  .meta({ summary: 'The caller’s rooms, newest first, with their state (the dashboard list).' })
  .input(z.object({}).optional())
  .output(z.array(ZRoomListItem))
  .query(async ({ ctx }) => {
    const rooms = await listOwnedRooms(() => ctx.em, ctx.session.user, ctx.services.roomListCache);
    return rooms.map((room) => toListItem(room, ctx.services.presence.memberCount(room.id)));
  });
