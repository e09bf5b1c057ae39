// Bill management (/bill): the caller's bills a page at a time with their status, details and refresh
// (which asks the payment provider). Coming back from a payment page lands here with ?out_trade_no=…: that bill
// is refreshed and shown, or, when the recharge was for a purchase (&returnTo=…) and the bill is paid, the payer
// goes straight back to that purchase.
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { TPayment } from '@rooms/api/client';
import { Button } from '@rooms/ui/button';
import { Card, CardContent } from '@rooms/ui/card';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate, useRouter } from '@tanstack/react-router';
import { ArrowLeftIcon, ChevronLeftIcon, ChevronRightIcon, PlusIcon, RefreshCwIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { QueryView } from '../../../components/query-view';
import { useImpersonation, useUserInfo } from '../../../hooks/use-current-user';
import { useFailureToast } from '../../../hooks/use-failure-toast';
import { formatMoney, parseReturnTo, paymentMethodLabel } from '../../../lib/billing';
import { formatDateTime } from '../../../lib/format';
import { toastError, toastSuccess } from '../../../lib/notify';
import { trpc, trpcClient } from '../../../lib/trpc';
import { PaymentDetailsDialog } from './-components/payment-details-dialog';
import { PaymentStatusBadge } from './-components/payment-status-badge';

const PAGE_SIZE = 10;

export const Route = createFileRoute('/_app/bill/')({
  staticData: { title: msg`Bill management` },
  validateSearch: (
    search: Record<string, unknown>,
  ): { page?: number; out_trade_no?: string; returnTo?: string } => {
    const returnTo = parseReturnTo(search.returnTo);
    return {
      ...(Number(search.page) > 1 ? { page: Math.floor(Number(search.page)) } : {}),
      ...(typeof search.out_trade_no === 'string' && search.out_trade_no
        ? { out_trade_no: search.out_trade_no }
        : {}),
      ...(returnTo ? { returnTo } : {}),
    };
  },
  component: BillPage,
});

function BillPage() {
  const { i18n, t } = useLingui();
  const navigate = useNavigate({ from: Route.fullPath });
  const router = useRouter();
  const queryClient = useQueryClient();
  const search = Route.useSearch();
  const page = search.page ?? 1;
  const bills = useQuery(trpc.pay.getPayList.queryOptions({ page, pageSize: PAGE_SIZE }));
  const user = useUserInfo();
  const [shown, setShown] = useState<TPayment | null>(null);
  const impersonated = useImpersonation() !== null;
  useFailureToast(bills.error, t`Failed to retrieve the bills`);

  const refresh = useMutation(
    trpc.pay.refresh.mutationOptions({
      onSuccess: async (payment) => {
        setShown((current) => (current && current.id === payment.id ? payment : current));
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.pay.getPayList.queryKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.user.userinfo.queryKey() }),
        ]);
      },
      onError: (error) => toastError(i18n, error, { prefix: t`Request failed` }),
    }),
  );

  // Back from the payment page: ask about that bill and show it.
  const returned = useRef<string | null>(null);
  useEffect(() => {
    const outTradeNo = search.out_trade_no;
    if (!outTradeNo || returned.current === outTradeNo) return;
    returned.current = outTradeNo;
    const returnTo = search.returnTo;
    void trpcClient.pay.refresh
      .mutate({ out_trade_no: outTradeNo })
      .then(async (payment) => {
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.pay.getPayList.queryKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.user.userinfo.queryKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.pay.getUserPlan.queryKey() }),
        ]);
        if (payment.status === 'paid' && returnTo) {
          // The recharge was for a purchase: back to it, now that the balance covers it.
          toastSuccess(i18n, t`Recharged ${formatMoney(i18n, payment.amount)}`);
          router.history.replace(returnTo);
          return;
        }
        setShown(payment);
      })
      .catch((error: unknown) => toastError(i18n, error, { prefix: t`Request failed` }));
    void navigate({ search: (current) => ({ ...current, out_trade_no: undefined }), replace: true });
  }, [search.out_trade_no, search.returnTo, navigate, router, queryClient, i18n, t]);

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="font-semibold text-2xl">
            <Trans>Bill management</Trans>
          </h1>
          {user.data ? (
            <p className="text-muted-foreground text-sm">
              <Trans>
                Balance: <span data-testid="bill-balance">{formatMoney(i18n, user.data.balance)}</span>
              </Trans>
            </p>
          ) : null}
        </div>
        <div className="flex gap-2">
          {search.returnTo ? (
            // Came to pay for a purchase and did not (cancelled, or not paid yet): the way back stays at hand.
            <Button variant="outline" asChild data-testid="bill-return">
              <a
                href={search.returnTo}
                onClick={(event) => {
                  event.preventDefault();
                  if (search.returnTo) router.history.push(search.returnTo);
                }}
              >
                <ArrowLeftIcon />
                <Trans>Back to where you were</Trans>
              </a>
            </Button>
          ) : null}
          <Button variant="outline" size="icon" onClick={() => bills.refetch()} aria-label={t`Refresh`}>
            <RefreshCwIcon className={bills.isFetching ? 'animate-spin' : undefined} />
          </Button>
          {impersonated ? null : (
            <Button asChild data-testid="recharge">
              <Link to="/bill/pay">
                <PlusIcon />
                <Trans>Recharge</Trans>
              </Link>
            </Button>
          )}
        </div>
      </div>
      <QueryView query={bills} failure={<Trans>Failed to retrieve the bills</Trans>}>
        {(list) =>
          list.total === 0 ? (
            <Card>
              <CardContent className="py-10 text-center text-muted-foreground">
                <Trans>No bills yet. A recharge creates one.</Trans>
              </CardContent>
            </Card>
          ) : (
            <Card>
              <CardContent className="overflow-x-auto p-0">
                <table className="w-full text-sm" data-testid="bill-table" aria-label={t`Bills`}>
                  <thead className="border-b text-left text-muted-foreground">
                    <tr>
                      <th className="p-3 font-medium">
                        <Trans>Order number</Trans>
                      </th>
                      <th className="p-3 font-medium">
                        <Trans>Amount</Trans>
                      </th>
                      <th className="p-3 font-medium max-md:hidden">
                        <Trans>Payment method</Trans>
                      </th>
                      <th className="p-3 font-medium">
                        <Trans>Status</Trans>
                      </th>
                      <th className="p-3 font-medium max-md:hidden">
                        <Trans>Created</Trans>
                      </th>
                      <th className="p-3 font-medium max-lg:hidden">
                        <Trans>Paid</Trans>
                      </th>
                      <th className="p-3" />
                    </tr>
                  </thead>
                  <tbody>
                    {list.items.map((payment) => (
                      <tr
                        key={payment.id}
                        className="border-b last:border-0"
                        data-testid="bill-row"
                        data-out-trade-no={payment.out_trade_no}
                      >
                        <td className="p-3 font-mono text-xs">{payment.out_trade_no}</td>
                        <td className="p-3">{formatMoney(i18n, payment.amount)}</td>
                        <td className="p-3 max-md:hidden">{paymentMethodLabel(i18n, payment.method)}</td>
                        <td className="p-3">
                          <PaymentStatusBadge status={payment.status} />
                        </td>
                        <td className="p-3 max-md:hidden">{formatDateTime(payment.createdAt)}</td>
                        <td className="p-3 max-lg:hidden">
                          {payment.paidAt ? formatDateTime(payment.paidAt) : '—'}
                        </td>
                        <td className="p-3 text-right">
                          <Button variant="ghost" size="sm" onClick={() => setShown(payment)}>
                            <Trans>Details</Trans>
                          </Button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </CardContent>
              <div className="flex items-center justify-end gap-2 border-t p-3 text-sm">
                <span className="text-muted-foreground">
                  <Trans>
                    Page {list.page} of {Math.max(1, Math.ceil(list.total / list.pageSize))}
                  </Trans>
                </span>
                <Button
                  variant="outline"
                  size="icon"
                  disabled={page <= 1}
                  aria-label={t`Previous page`}
                  onClick={() => navigate({ search: (current) => ({ ...current, page: page - 1 }) })}
                >
                  <ChevronLeftIcon />
                </Button>
                <Button
                  variant="outline"
                  size="icon"
                  disabled={page * list.pageSize >= list.total}
                  aria-label={t`Next page`}
                  onClick={() => navigate({ search: (current) => ({ ...current, page: page + 1 }) })}
                >
                  <ChevronRightIcon />
                </Button>
              </div>
            </Card>
          )
        }
      </QueryView>
      <PaymentDetailsDialog
        payment={shown}
        refreshing={refresh.isPending}
        onRefresh={(payment) => refresh.mutate({ out_trade_no: payment.out_trade_no })}
        onClose={() => setShown(null)}
      />
    </div>
  );
}
