import { SystemImage } from '@rooms/db';
import { z } from 'zod';
import { protectedProcedure } from '../../trpc';
import { catalogueContext } from './catalogue';
import { ZGetRoomImageReply } from './get-room-image.types';

export const getRoomImage = protectedProcedure
  .meta({ summary: 'The system images a room can run, with the caller’s plan limits for the create dialog.' })
  .input(z.object({}).optional())
  .output(ZGetRoomImageReply)
  .query(async ({ ctx }) => {
    const context = await catalogueContext(ctx, ctx.session.user.id);
    const images = await ctx.em.find(
      SystemImage,
      { enabled: true },
      { orderBy: { sortOrder: 'asc', code: 'asc' } },
    );
    return {
      ...context,
      // Plans do not restrict images yet; the flag keeps the shape of the zone catalogue for when they do.
      images: images.map((image) => ({
        code: image.code,
        name: image.name,
        description: image.description,
        kind: image.kind,
        startUrl: image.startUrl ?? null,
        allowed: true,
      })),
    };
  });
