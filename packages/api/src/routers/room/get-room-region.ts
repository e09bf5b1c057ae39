import { z } from 'zod';
import { zoneCatalog } from '../../domains/billing';
import { protectedProcedure } from '../../trpc';
import { ZGetRoomRegionReply } from './get-room-region.types';

export const getRoomRegion = protectedProcedure
  .meta({ rest: { method: 'GET', path: '/api/room/getRoomRegion', tag: 'Room', errors: [] } })
  .meta({
    summary:
      'The zones rooms can be created in, flagged by what the caller’s plan allows, with the plan limits.',
  })
  .input(z.object({}).optional())
  .output(ZGetRoomRegionReply)
  .query(({ ctx }) => zoneCatalog(ctx.em, ctx.session.user.id, ctx.services.now()));
