// admin.payments.*: bills across users, refresh and refund.
import { listPayments, refreshPaymentAsAdmin, refundPayment } from '../../domains/admin';
import { adminProcedure, router } from '../../trpc';
import {
  ZAdminPayment,
  ZAdminPaymentList,
  ZAdminPaymentListRequest,
  ZPaymentTarget,
  ZRefundRequest,
} from './admin.types';
import { adminDeps } from './admin-deps';

export const adminPaymentsRouter = router({
  list: adminProcedure
    .meta({ rest: { method: 'GET', path: '/api/admin/payments/list', tag: 'Admin', errors: [] } })
    .meta({ summary: 'Administrator: bills of all users by status, e-mail or order number, newest first.' })
    .input(ZAdminPaymentListRequest)
    .output(ZAdminPaymentList)
    .query(({ ctx, input }) => listPayments(ctx.em, input)),

  refresh: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/payments/refresh',
        tag: 'Admin',
        errors: ['PAYMENT_NOT_FOUND', 'PAYMENT_PROVIDER_FAILED'],
      },
    })
    .meta({ summary: 'Administrator: ask the payment provider about a bill again and store its answer.' })
    .input(ZPaymentTarget)
    .output(ZAdminPayment)
    .mutation(({ ctx, input }) =>
      refreshPaymentAsAdmin({ ...adminDeps(ctx), payments: ctx.services.payments }, input.paymentId),
    ),

  refund: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/payments/refund',
        tag: 'Admin',
        errors: ['PAYMENT_NOT_FOUND', 'REFUND_NOT_PAID', 'REFUND_DONE', 'REFUND_EXCEEDS_BALANCE'],
      },
    })
    .meta({ summary: 'Administrator: refund a paid bill; the amount leaves the balance through the ledger.' })
    .input(ZRefundRequest)
    .output(ZAdminPayment)
    .mutation(({ ctx, input }) => refundPayment(adminDeps(ctx, input), input)),
});
