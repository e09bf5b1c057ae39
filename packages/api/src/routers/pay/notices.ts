// The notices billing left for the caller (rooms stopped for lack of time, a plan renewed or lapsed).
import { z } from 'zod';
import { markNoticesRead, unreadNotices } from '../../domains/billing';
import { protectedProcedure } from '../../trpc';
import { ZNotice, ZNoticesReadRequest } from './pay.types';

export const getNotices = protectedProcedure
  .meta({ rest: { method: 'GET', path: '/api/pay/getNotices', tag: 'Pay', errors: [] } })
  .meta({ summary: 'Unread billing notices: rooms stopped when time ran out, plans renewed or lapsed.' })
  .input(z.object({}).optional())
  .output(z.array(ZNotice))
  .query(async ({ ctx }) =>
    (await unreadNotices(ctx.em, ctx.session.user.id)).map((notice) => ({
      id: notice.id,
      kind: notice.kind,
      planName: notice.planName,
      roomsStopped: notice.roomsStopped,
      createdAt: notice.createdAt,
    })),
  );

export const readNotices = protectedProcedure
  .meta({ rest: { method: 'POST', path: '/api/pay/readNotices', tag: 'Pay', errors: [] } })
  .meta({ summary: 'Dismiss billing notices once seen.' })
  .input(ZNoticesReadRequest)
  .output(z.object({ read: z.number().int() }))
  .mutation(async ({ ctx, input }) => ({
    read: await markNoticesRead(ctx.em, ctx.session.user.id, input.ids, ctx.services.now()),
  }));
