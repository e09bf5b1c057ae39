import { z } from 'zod';
import { findOwnedRoom, removeRoom } from '../../domains/rooms';
import { OWN_SESSION_ERRORS } from '../../rest/rest-meta';
import { ownSessionProcedure } from '../../trpc';
import { ZRoomTarget } from './room.types';

// Not undone, so not for a session an administrator opened as the owner (ownSessionProcedure).
export const deleteRoom = ownSessionProcedure
  .meta({
    rest: {
      method: 'POST',
      path: '/api/room/deleteRoom',
      tag: 'Room',
      errors: [...OWN_SESSION_ERRORS, 'ROOM_NOT_FOUND'],
      queryParameters: true,
    },
  })
  .meta({ summary: 'Delete the room: its browser is stopped first and its kept browser data removed.' })
  .input(ZRoomTarget)
  .output(z.object({ id: z.string(), name: z.string() }))
  .mutation(async ({ ctx, input }) =>
    removeRoom(ctx, await findOwnedRoom(ctx.em, ctx.session.user.id, input)),
  );
