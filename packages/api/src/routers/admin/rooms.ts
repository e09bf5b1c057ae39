// admin.rooms.*: every running room, and a stop for any of them.
import { z } from 'zod';
import { liveRoomViews, stopRoomAsAdmin } from '../../domains/admin';
import { adminProcedure, router } from '../../trpc';
import { ZAdminLiveRoomList, ZDone, ZStopRoomRequest } from './admin.types';
import { adminDeps } from './admin-deps';

export const adminRoomsRouter = router({
  list: adminProcedure
    .meta({ rest: { method: 'GET', path: '/api/admin/rooms/list', tag: 'Admin', errors: [] } })
    .meta({
      summary: 'Administrator: running rooms with owner, region, members, uptime, media path and fps.',
    })
    .input(z.object({}).optional())
    .output(ZAdminLiveRoomList)
    .query(({ ctx }) =>
      liveRoomViews({
        em: ctx.em,
        rooms: ctx.services.rooms,
        presence: ctx.services.presence,
        now: ctx.services.now(),
      }),
    ),

  stop: adminProcedure
    .meta({
      rest: { method: 'POST', path: '/api/admin/rooms/stop', tag: 'Admin', errors: ['ROOM_NOT_FOUND'] },
    })
    .meta({ summary: 'Administrator: stop any room, with a reason; its participants are disconnected.' })
    .input(ZStopRoomRequest)
    .output(ZDone)
    .mutation(async ({ ctx, input }) => {
      await stopRoomAsAdmin({ ...adminDeps(ctx, input), rooms: ctx.services.rooms }, input.roomId);
      return { ok: true } as const;
    }),
});
