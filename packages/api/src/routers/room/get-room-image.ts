import { SystemImage } from '@rooms/db';
import { z } from 'zod';
import { catalogContext } from '../../domains/billing';
import { protectedProcedure } from '../../trpc';
import { ZGetRoomImageReply } from './get-room-image.types';

export const getRoomImage = protectedProcedure
  .meta({ rest: { method: 'GET', path: '/api/room/getRoomImage', tag: 'Room', errors: [] } })
  .meta({ summary: 'The system images a room can run, with the caller’s plan limits for the create dialog.' })
  .input(z.object({}).optional())
  .output(ZGetRoomImageReply)
  .query(async ({ ctx }) => {
    const context = await catalogContext(ctx.em, ctx.session.user.id, ctx.services.now());
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
