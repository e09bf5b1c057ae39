import { z } from 'zod';
import { findOwnedRoom, removeRoom } from '../../domains/rooms';
import { ownSessionProcedure } from '../../trpc';
import { ZRoomTarget } from './room.types';

// Not undone, so not for a session an administrator opened as the owner (ownSessionProcedure).
export const deleteRoom = ownSessionProcedure
  .meta({ summary: 'Delete the room: its browser is stopped first and its kept browser data removed.' })
  .input(ZRoomTarget)
  .output(z.object({ id: z.string(), name: z.string() }))
  .mutation(async ({ ctx, input }) =>
    removeRoom(ctx, await findOwnedRoom(ctx.em, ctx.session.user.id, input)),
  );
