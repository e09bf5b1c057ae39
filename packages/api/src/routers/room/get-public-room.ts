import { z } from 'zod';
import { publicSquare } from '../../domains/rooms';
import { publicProcedure } from '../../trpc';
import { ZPublicRoom } from './share.types';

export const getPublicRoom = publicProcedure
  .meta({ rest: { method: 'GET', path: '/api/room/getPublicRoom', auth: false, tag: 'Room', errors: [] } })
  .meta({
    summary:
      'The public square: running rooms their owners made public, busiest first, each with a thumbnail address.',
  })
  .input(z.object({}).optional())
  .output(z.array(ZPublicRoom))
  .query(({ ctx }) => publicSquare(ctx.em, ctx.services.presence));
