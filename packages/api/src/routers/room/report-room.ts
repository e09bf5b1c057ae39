import { RoomReport, User } from '@rooms/db';
import { addressBudgets, throttle } from '../../domains/accounts';
import { enterableRoom } from '../../domains/rooms';
import { publicProcedure } from '../../trpc';
import { ZReportRoomReply, ZReportRoomRequest } from './share.types';

/** Enough for someone who means it, too few to flood the administrator. */
export const REPORT_LIMITS = {
  perAddress: { limit: 5, groupLimit: 15, windowSeconds: 60 * 60 },
  perAccount: { limit: 5, windowSeconds: 60 * 60 },
} as const;

export const reportRoom = publicProcedure
  .meta({
    summary:
      'Report a room to the administrator with a reason; anyone who may enter it can (guests give the share password).',
    multiline: ['reason'],
  })
  .input(ZReportRoomRequest)
  .output(ZReportRoomReply)
  .mutation(async ({ ctx, input }) => {
    const userId = ctx.session?.user.id ?? null;
    await throttle(ctx, [
      ...addressBudgets('report', ctx.request.ip, REPORT_LIMITS.perAddress),
      ...(userId ? [{ key: `report:user:${userId}`, ...REPORT_LIMITS.perAccount }] : []),
    ]);
    const { room } = await enterableRoom(ctx, { id: input.id }, input.password);
    const report = ctx.em.create(RoomReport, {
      room,
      roomName: room.name,
      reporter: userId ? ctx.em.getReference(User, userId) : null,
      reporterIp: ctx.request.ip.slice(0, 64),
      reason: input.reason,
    });
    await ctx.em.flush();
    return { id: report.id };
  });
