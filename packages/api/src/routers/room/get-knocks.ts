import { z } from 'zod';
import { listOwnedRooms } from '../../domains/rooms';
import { ZKnock } from '../../room-protocol/knock';
import { protectedProcedure } from '../../trpc';

/** One of the caller's rooms with people knocking at its door. */
export const ZRoomKnocks = z.object({
  roomId: z.string(),
  roomName: z.string(),
  knocks: z.array(ZKnock).describe('Waiting for an answer, oldest first.'),
});

/**
 * The knocks waiting at the caller's rooms, for an owner who is not in the room: the app polls it and says who
 * wants in, and the room itself is where they are let in or turned away.
 */
export const getKnocks = protectedProcedure
  .meta({ rest: { method: 'GET', path: '/api/room/getKnocks', tag: 'Room', errors: [] } })
  .meta({
    summary: 'Who knocks at the caller’s running rooms now (rooms with nobody knocking are left out).',
  })
  .input(z.object({}).optional())
  .output(z.array(ZRoomKnocks))
  .query(async ({ ctx }) => {
    const rooms = await listOwnedRooms(() => ctx.em, ctx.session.user, ctx.services.roomListCache);
    // Only a running room has a door to knock at: the others answer no knock.
    return rooms
      .map((room) => ({
        roomId: room.id,
        roomName: room.name,
        knocks: ctx.services.presence.knocks(room.id),
      }))
      .filter((room) => room.knocks.length > 0);
  });
