import { z } from 'zod';
import { findOwnedRoom, haltRoom } from '../../domains/rooms';
import { ownSessionProcedure } from '../../trpc';
import { ZRoomTarget } from './room.types';

// Not undone, so not for a session an administrator opened as the owner (ownSessionProcedure).
export const deleteRoom = ownSessionProcedure
  .meta({ summary: 'Delete the room: its browser is stopped first and its kept browser data removed.' })
  .input(ZRoomTarget)
  .output(z.object({ id: z.string(), name: z.string() }))
  .mutation(async ({ ctx, input }) => {
    const room = await findOwnedRoom(ctx.em, ctx.session.user.id, input);
    await haltRoom(ctx, room);
    // The profile goes before the row: if removing it fails, the room is still there to delete again.
    await ctx.services.rooms.deleteData(room.id);
    const reply = { id: room.id, name: room.name };
    await ctx.em.remove(room).flush();
    return reply;
  });
