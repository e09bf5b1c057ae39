import { createOwnedRoom } from '../../domains/rooms';
import { PLAN_LIMIT_ERRORS } from '../../rest/rest-meta';
import { protectedProcedure } from '../../trpc';
import { ZCreateRoomRequest } from './create-room.types';
import { ZRoomInfo } from './room.types';

export const createRoom = protectedProcedure
  .meta({
    rest: {
      method: 'POST',
      path: '/api/room/createRoom',
      tag: 'Room',
      errors: [
        'ROOM_ZONE_UNAVAILABLE',
        'PLAN_ZONE_NOT_ALLOWED',
        'ROOM_IMAGE_UNAVAILABLE',
        'ROOM_START_URL_REQUIRED',
        ...PLAN_LIMIT_ERRORS,
        'PLAN_MAX_ROOMS',
        'ROOM_NAME_TAKEN',
      ],
    },
  })
  .meta({
    summary: 'Create a room (stopped); its zone, image and limits are checked against the caller’s plan.',
  })
  .input(ZCreateRoomRequest)
  .output(ZRoomInfo)
  .mutation(({ ctx, input }) => createOwnedRoom(ctx, ctx.session.user.id, input));
