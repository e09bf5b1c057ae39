// Members and visitors report a room to the administrator: anyone who may enter it can, within a budget per
// address and per account.
import { RoomReport, User } from '@rooms/db';
import type { TContext } from '../../context';
import { addressBudgets } from '../accounts/budgets';
import { throttle } from '../accounts/guards';
import { enterableRoom } from './share-room';

/** Enough for someone who means it, too few to flood the administrator. */
export const REPORT_LIMITS = {
  perAddress: { limit: 5, groupLimit: 15, windowSeconds: 60 * 60 },
  perAccount: { limit: 5, windowSeconds: 60 * 60 },
} as const;

/** Files the report; guests give the share password, as entering would ask. Resolves to the report's id. */
export async function fileRoomReport(
  ctx: TContext,
  report: { id: string; reason: string; password?: string | undefined },
): Promise<{ id: string }> {
  const userId = ctx.session?.user.id ?? null;
  await throttle(ctx, [
    ...addressBudgets('report', ctx.request.ip, REPORT_LIMITS.perAddress),
    ...(userId ? [{ key: `report:user:${userId}`, ...REPORT_LIMITS.perAccount }] : []),
  ]);
  const { room } = await enterableRoom(ctx, { id: report.id }, report.password);
  const filed = ctx.em.create(RoomReport, {
    room,
    roomName: room.name,
    reporter: userId ? ctx.em.getReference(User, userId) : null,
    reporterIp: ctx.request.ip.slice(0, 64),
    reason: report.reason,
  });
  await ctx.em.flush();
  return { id: filed.id };
}
