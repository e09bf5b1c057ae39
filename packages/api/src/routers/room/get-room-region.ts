import { Region } from '@rooms/db';
import { z } from 'zod';
import { protectedProcedure } from '../../trpc';
import { catalogueContext } from './catalogue';
import { ZGetRoomRegionReply } from './get-room-region.types';

export const getRoomRegion = protectedProcedure
  .meta({
    summary:
      'The zones rooms can be created in, flagged by what the caller’s plan allows, with the plan limits.',
  })
  .input(z.object({}).optional())
  .output(ZGetRoomRegionReply)
  .query(async ({ ctx }) => {
    const context = await catalogueContext(ctx, ctx.session.user.id);
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
