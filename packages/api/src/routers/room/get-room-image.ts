import { z } from 'zod';
import { imageCatalog } from '../../domains/billing';
import { protectedProcedure } from '../../trpc';
import { ZGetRoomImageReply } from './get-room-image.types';

export const getRoomImage = protectedProcedure
  .meta({ rest: { method: 'GET', path: '/api/room/getRoomImage', tag: 'Room', errors: [] } })
  .meta({ summary: 'The system images a room can run, with the caller’s plan limits for the create dialog.' })
  .input(z.object({}).optional())
  .output(ZGetRoomImageReply)
  .query(({ ctx }) => imageCatalog(ctx.em, ctx.session.user.id, ctx.services.now()));
