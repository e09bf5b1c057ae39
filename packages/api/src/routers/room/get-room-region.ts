import { Region } from '@rooms/db';
import { z } from 'zod';
import { catalogContext } from '../../domains/billing';
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
  .query(async ({ ctx }) => {
    const context = await catalogContext(ctx.em, ctx.session.user.id, ctx.services.now());
    const regions = await ctx.em.find(
      Region,
      { enabled: true },
      { orderBy: { sortOrder: 'asc', code: 'asc' } },
    );
    return {
      ...context,
      regions: regions.map((region) => ({
        code: region.code,
        name: region.name,
        description: region.description,
        allowed: context.plan.regionCodes.includes(region.code),
      })),
    };
  });
