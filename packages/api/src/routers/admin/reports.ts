// admin.reports.*: the moderation queue from the public square.
import { listReports, resolveReport } from '../../domains/admin';
import { adminProcedure, router } from '../../trpc';
import { ZAdminReport, ZReportList, ZReportListRequest, ZResolveReportRequest } from './admin.types';
import { adminDeps } from './admin-deps';

export const adminReportsRouter = router({
  list: adminProcedure
    .meta({ rest: { method: 'GET', path: '/api/admin/reports/list', tag: 'Admin', errors: [] } })
    .meta({ summary: 'Administrator: room reports, open ones first by default, newest first.' })
    .input(ZReportListRequest)
    .output(ZReportList)
    .query(({ ctx, input }) => listReports(ctx.em, input)),

  resolve: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/reports/resolve',
        tag: 'Admin',
        errors: ['REPORT_NOT_FOUND', 'ROOM_NOT_FOUND'],
      },
    })
    .meta({
      summary:
        'Administrator: dismiss a report, hide the room from the square, stop it, or disable its owner.',
    })
    .input(ZResolveReportRequest)
    .output(ZAdminReport)
    .mutation(({ ctx, input }) => resolveReport(adminDeps(ctx, input), input.reportId, input.action)),
});
