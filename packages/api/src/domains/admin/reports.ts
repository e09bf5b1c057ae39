// The moderation queue: reports from the square, newest first, and what an administrator does with one. Every
// resolution closes the report; 'hide' takes the room off the square, 'stop' stops it, 'disableOwner' disables
// the owner's account (which ends their sessions and stops all their rooms).
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Room, RoomReport, User } from '@rooms/db';
import { AppError } from '../../errors';
import { recordAudit } from './audit';
import { keysetPage, keysetWhere, type TKeyset } from './keyset';
import { stopRooms } from './rooms';
import { setUserDisabled, type TAdminDeps } from './users';

export type TReportAction = 'dismiss' | 'hide' | 'stop' | 'disableOwner';

export interface TReportView {
  id: string;
  roomId: string | null;
  roomName: string;
  roomOwner: { id: string; email: string } | null;
  roomHidden: boolean;
  roomState: Room['state'] | null;
  reason: string;
  reporter: string | null;
  reporterIp: string;
  createdAt: Date;
  resolvedAt: Date | null;
  resolution: TReportAction | null;
  resolvedBy: string | null;
}

const POPULATE = ['room.owner', 'reporter', 'resolvedBy'] as const;

export function reportView(report: RoomReport): TReportView {
  const room = report.room ?? null;
  return {
    id: report.id,
    roomId: room?.id ?? null,
    roomName: report.roomName,
    roomOwner: room ? { id: room.owner.id, email: room.owner.email } : null,
    roomHidden: room?.hiddenFromSquare ?? false,
    roomState: room?.state ?? null,
    reason: report.reason,
    reporter: report.reporter?.email ?? null,
    reporterIp: report.reporterIp,
    createdAt: report.createdAt,
    resolvedAt: report.resolvedAt ?? null,
    resolution: (report.resolution as TReportAction | null) ?? null,
    resolvedBy: report.resolvedBy?.email ?? null,
  };
}

export async function listReports(
  em: EntityManager,
  filter: TKeyset & { status: 'open' | 'resolved' | 'all' },
) {
  const where: Record<string, unknown>[] = [];
  if (filter.status === 'open') where.push({ resolvedAt: null });
  if (filter.status === 'resolved') where.push({ resolvedAt: { $ne: null } });
  const after = keysetWhere(filter.cursor, 'createdAt');
  if (after) where.push(after);
  const rows = await em.find(RoomReport, where.length ? { $and: where } : {}, {
    populate: POPULATE,
    orderBy: { createdAt: 'desc', id: 'desc' },
    limit: filter.limit + 1,
  });
  const page = keysetPage(rows, filter.limit, (row) => row.createdAt);
  return { items: page.items.map(reportView), nextCursor: page.nextCursor };
}

/** Reports against any of the user's rooms, newest first. */
export async function reportsAgainst(em: EntityManager, userId: string, limit = 50): Promise<TReportView[]> {
  const rows = await em.find(
    RoomReport,
    { room: { owner: userId } },
    { populate: POPULATE, orderBy: { createdAt: 'desc' }, limit },
  );
  return rows.map(reportView);
}

export async function resolveReport(
  deps: TAdminDeps,
  reportId: string,
  action: TReportAction,
): Promise<TReportView> {
  const { em } = deps;
  const report = await em.findOne(RoomReport, reportId, { populate: POPULATE });
  if (!report) throw new AppError('REPORT_NOT_FOUND');
  const room = report.room ?? null;
  if (action !== 'dismiss' && !room) throw new AppError('ROOM_NOT_FOUND');
  const before: Record<string, unknown> = { resolution: report.resolution ?? null };
  const after: Record<string, unknown> = { resolution: action };

  if (room && action === 'hide') {
    before.hiddenFromSquare = room.hiddenFromSquare;
    after.hiddenFromSquare = true;
    room.hiddenFromSquare = true;
  }
  if (room && action === 'stop') {
    before.roomState = room.state;
    if (deps.rooms) await stopRooms({ em, rooms: deps.rooms, now: deps.now }, [room.id]);
    await em.refresh(room);
    after.roomState = room.state;
  }
  if (room && action === 'disableOwner') {
    // The disable writes its own audit row (user.disable): the report's row says why it happened.
    await setUserDisabled(deps, room.owner.id, true);
    after.ownerDisabled = room.owner.email;
  }

  report.resolvedAt = deps.now;
  report.resolution = action;
  report.resolvedBy = deps.actor.id ? em.getReference(User, deps.actor.id) : null;
  recordAudit(em, deps.actor, {
    action: `report.${action}`,
    targetType: 'report',
    targetId: report.id,
    targetLabel: report.roomName,
    before,
    after,
  });
  await em.flush();
  await em.populate(report, ['resolvedBy']);
  return reportView(report);
}
