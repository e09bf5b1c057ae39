// admin.audit.list: the append-only log of administrator actions.
import { auditEntries } from '../../domains/admin';
import { adminProcedure } from '../../trpc';
import { ZAuditList, ZAuditListRequest } from './admin.types';

export const auditList = adminProcedure
  .meta({ rest: { method: 'GET', path: '/api/admin/audit/list', tag: 'Admin', errors: [] } })
  .meta({ summary: 'Administrator: the audit log, newest first, by action, administrator, target and time.' })
  .input(ZAuditListRequest)
  .output(ZAuditList)
  .query(async ({ ctx, input }) => {
    const page = await auditEntries(ctx.em, input);
    return {
      items: page.items.map((entry) => ({
        id: entry.id,
        actor: entry.actorLabel,
        action: entry.action,
        targetType: entry.targetType,
        targetId: entry.targetId,
        targetLabel: entry.targetLabel,
        before: entry.before ?? null,
        after: entry.after ?? null,
        reason: entry.reason ?? null,
        ip: entry.ip ?? null,
        createdAt: entry.createdAt,
      })),
      nextCursor: page.nextCursor,
    };
  });
