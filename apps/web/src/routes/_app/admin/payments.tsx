// Every user's bills: filtered by status or by part of the payer's e-mail or the order number. A bill can be
// checked with the payment provider again, and a paid one refunded to the balance (with a reason, after a
// confirmation).
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Card } from '@rooms/ui/card';
import { Input } from '@rooms/ui/input';
import { NativeSelect } from '@rooms/ui/native-select';
import { useInfiniteQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { RefreshCwIcon, SearchIcon, Undo2Icon } from 'lucide-react';
import { useState } from 'react';
import { QueryView } from '../../../components/query-view';
import { useFailureToast } from '../../../hooks/use-failure-toast';
import { useSearchInAddress } from '../../../hooks/use-search-in-address';
import { formatMoney, paymentMethodLabel, type TPaymentStatus } from '../../../lib/billing';
import { formatDateTime } from '../../../lib/format';
import { trpc, trpcClient } from '../../../lib/trpc';
import { PaymentStatusBadge } from '../bill/-components/payment-status-badge';
import {
  nextCursor,
  SEARCH_MAX_LENGTH,
  type TAdminPayment,
  useAdminMutation,
  useFailureText,
} from './-components/admin-api';
import { useAdminForm } from './-components/admin-form';
import { AdminPageHeader } from './-components/admin-ui';
import { column, DataTable, type TDataColumn } from './-components/data-table';
import { FormDialog } from './-components/form-dialog';
import { ReasonField } from './-components/reason-field';
import { ZReasonForm } from './-components/validation';

const statuses = ['unpaid', 'paid', 'expired', 'unknown'] as const;

export const Route = createFileRoute('/_app/admin/payments')({
  staticData: { title: msg`Payments` },
  validateSearch: (search: Record<string, unknown>): { status?: TPaymentStatus; q?: string } => ({
    ...(statuses.includes(search.status as TPaymentStatus)
      ? { status: search.status as TPaymentStatus }
      : {}),
    ...(typeof search.q === 'string' && search.q.trim() ? { q: search.q.slice(0, SEARCH_MAX_LENGTH) } : {}),
  }),
  component: PaymentsPage,
});

function PaymentsPage() {
  const { i18n, t } = useLingui();
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const { text, setText, query } = useSearchInAddress(search.q, (q) =>
    navigate({ search: (current) => ({ ...current, q }), replace: true }),
  );
  const [refunding, setRefunding] = useState<TAdminPayment | null>(null);

  const payments = useInfiniteQuery(
    trpc.admin.payments.list.infiniteQueryOptions(
      { status: search.status, query: query || undefined, limit: 25 },
      { getNextPageParam: nextCursor },
    ),
  );
  useFailureToast(payments.error, t`Failed to retrieve the bills`);
  const refresh = useAdminMutation(
    (paymentId: string) => trpcClient.admin.payments.refresh.mutate({ paymentId }),
    { success: (payment) => i18n._(msg`Bill ${payment.out_trade_no} refreshed`) },
  );
  const columns: TDataColumn<TAdminPayment>[] = [
    column({
      id: 'orderNo',
      header: <Trans>Order number</Trans>,
      cellClassName: 'font-mono text-xs',
      cell: (payment) => payment.out_trade_no,
    }),
    column({
      id: 'user',
      header: <Trans>User</Trans>,
      cell: (payment) => (
        <Link to="/admin/users/$userId" params={{ userId: payment.user.id }} className="hover:underline">
          {payment.user.email}
        </Link>
      ),
    }),
    column({
      id: 'amount',
      header: <Trans>Amount</Trans>,
      className: 'text-right',
      cell: (payment) => formatMoney(i18n, payment.amount),
    }),
    column({
      id: 'method',
      header: <Trans>Payment method</Trans>,
      className: 'max-md:hidden',
      cell: (payment) => paymentMethodLabel(i18n, payment.method),
    }),
    column({
      id: 'status',
      header: <Trans>Status</Trans>,
      cell: (payment) => <PaymentStatusBadge status={payment.status} />,
    }),
    column({
      id: 'createdAt',
      header: <Trans>Created</Trans>,
      className: 'max-lg:hidden',
      cellClassName: 'whitespace-nowrap',
      cell: (payment) => formatDateTime(payment.createdAt),
    }),
    column({
      id: 'paidAt',
      header: <Trans>Paid</Trans>,
      className: 'max-lg:hidden',
      cellClassName: 'whitespace-nowrap',
      cell: (payment) => (payment.paidAt ? formatDateTime(payment.paidAt) : '—'),
    }),
    column({
      id: 'refundedAt',
      header: <Trans>Refunded</Trans>,
      className: 'max-lg:hidden',
      cellClassName: 'whitespace-nowrap',
      cell: (payment) => (payment.refundedAt ? formatDateTime(payment.refundedAt) : '—'),
    }),
    column({
      id: 'actions',
      cell: (payment) => (
        <div className="flex justify-end gap-1">
          <Button
            size="sm"
            variant="outline"
            disabled={refresh.isPending && refresh.variables === payment.id}
            onClick={() => refresh.mutate(payment.id)}
          >
            <RefreshCwIcon />
            <Trans>Refresh</Trans>
          </Button>
          {payment.status === 'paid' && payment.refundedAt === null ? (
            <Button size="sm" variant="destructive" onClick={() => setRefunding(payment)}>
              <Undo2Icon />
              <Trans>Refund</Trans>
            </Button>
          ) : null}
        </div>
      ),
    }),
  ];

  return (
    <div className="grid gap-6">
      <AdminPageHeader title={<Trans>Payments</Trans>}>
        <div className="relative w-72 max-w-full">
          <SearchIcon className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 opacity-50" />
          <Input
            type="search"
            className="pl-8"
            value={text}
            maxLength={SEARCH_MAX_LENGTH}
            onChange={(event) => setText(event.target.value)}
            placeholder={t`Search by e-mail or order number`}
            aria-label={t`Search by e-mail or order number`}
            data-testid="payment-search"
          />
        </div>
        <NativeSelect
          className="w-40"
          aria-label={t`Status`}
          value={search.status ?? ''}
          data-testid="payment-status-filter"
          onChange={(event) => {
            const value = event.target.value as TPaymentStatus | '';
            void navigate({
              search: (current) => ({ ...current, status: value === '' ? undefined : value }),
              replace: true,
            });
          }}
        >
          <option value="">{t`All statuses`}</option>
          <option value="paid">{t`Paid`}</option>
          <option value="unpaid">{t`Unpaid`}</option>
          <option value="expired">{t`Expired`}</option>
          <option value="unknown">{t`Unknown`}</option>
        </NativeSelect>
      </AdminPageHeader>
      <QueryView query={payments} failure={<Trans>Failed to retrieve the bills</Trans>}>
        {(data) => {
          const rows = data.pages.flatMap((page) => page.items);
          return (
            <Card className="gap-0 overflow-hidden py-0">
              <DataTable
                testId="admin-payments"
                label={t`Payments`}
                columns={columns}
                rows={rows}
                rowId={(payment) => payment.id}
                rowProps={(payment) => ({
                  'data-testid': 'admin-payment-row',
                  'data-out-trade-no': payment.out_trade_no,
                })}
                empty={<Trans>No bills match.</Trans>}
                more={{
                  hasMore: payments.hasNextPage,
                  loading: payments.isFetchingNextPage,
                  onLoad: () => payments.fetchNextPage(),
                }}
              />
            </Card>
          );
        }}
      </QueryView>
      {refunding ? (
        <RefundDialog key={refunding.id} payment={refunding} onClose={() => setRefunding(null)} />
      ) : null}
    </div>
  );
}

const REFUND_ERROR_ID = 'refund-error';

function RefundDialog({ payment, onClose }: { payment: TAdminPayment; onClose: () => void }) {
  const { i18n } = useLingui();
  const { form, invalid } = useAdminForm(ZReasonForm, { reason: '' });
  const refund = useAdminMutation(
    (checked: string) => trpcClient.admin.payments.refund.mutate({ paymentId: payment.id, reason: checked }),
    {
      success: (refunded) => i18n._(msg`Bill ${refunded.out_trade_no} refunded`),
      toastFailure: false,
      onSuccess: onClose,
    },
  );
  const serverError = useFailureText(refund.error);
  const amount = formatMoney(i18n, payment.amount);
  const email = payment.user.email;
  const orderNo = payment.out_trade_no;
  return (
    <FormDialog
      open
      destructive
      testId="refund-dialog"
      title={<Trans>Refund this bill?</Trans>}
      description={
        <Trans>
          {amount} of bill {orderNo} is taken back from the balance of {email}. Return the money itself
          through the payment provider’s own dashboard.
        </Trans>
      }
      submitLabel={<Trans>Refund</Trans>}
      pending={refund.isPending}
      error={invalid?.text ?? serverError}
      errorId={REFUND_ERROR_ID}
      onSubmit={form.handleSubmit(({ reason }) => refund.mutate(reason))}
      onClose={onClose}
    >
      <ReasonField
        id="refund-reason"
        field={form.register('reason')}
        invalid={invalid?.field === 'reason'}
        errorId={REFUND_ERROR_ID}
      />
    </FormDialog>
  );
}
