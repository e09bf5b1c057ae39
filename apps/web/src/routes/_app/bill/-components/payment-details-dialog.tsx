// One bill in full; an unpaid one shows its payment link and the prompt to pay
// first and then refresh; an expired one says it can no longer be paid, an unknown one that the provider could not
// tell.
import { Trans, useLingui } from '@lingui/react/macro';
import type { TPayment } from '@rooms/api/client';
import { Button } from '@rooms/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@rooms/ui/dialog';
import { Spinner } from '@rooms/ui/spinner';
import { ExternalLinkIcon, RefreshCwIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useImpersonation } from '../../../../hooks/use-current-user';
import { formatMoney, paymentMethodLabel } from '../../../../lib/billing';
import { formatDateTime } from '../../../../lib/format';
import { PaymentStatusBadge } from './payment-status-badge';

function Row({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="grid gap-1 border-b py-2 last:border-0 sm:grid-cols-[10rem_1fr]">
      <dt className="text-muted-foreground text-sm">{label}</dt>
      <dd className="break-all text-sm">{children}</dd>
    </div>
  );
}

export function PaymentDetailsDialog(props: {
  payment: TPayment | null;
  refreshing: boolean;
  onRefresh: (payment: TPayment) => void;
  onClose: () => void;
}) {
  const { i18n, t } = useLingui();
  const { payment } = props;
  // An administrator signed in as the user does not pay the user's bills.
  const payable = useImpersonation() === null;
  return (
    <Dialog open={payment !== null} onOpenChange={(open) => (open ? undefined : props.onClose())}>
      <DialogContent closeLabel={t`Close`} className="md:max-w-xl" data-testid="payment-details">
        <DialogHeader>
          <DialogTitle>
            <Trans>Bill details</Trans>
          </DialogTitle>
          <DialogDescription>{payment?.out_trade_no}</DialogDescription>
        </DialogHeader>
        {payment ? (
          <dl>
            <Row label={<Trans>Order number</Trans>}>{payment.out_trade_no}</Row>
            <Row label={<Trans>Amount</Trans>}>{formatMoney(i18n, payment.amount)}</Row>
            <Row label={<Trans>Payment method</Trans>}>{paymentMethodLabel(i18n, payment.method)}</Row>
            <Row label={<Trans>Status</Trans>}>
              <PaymentStatusBadge status={payment.status} />
            </Row>
            <Row label={<Trans>Created</Trans>}>{formatDateTime(payment.createdAt)}</Row>
            <Row label={<Trans>Paid</Trans>}>{payment.paidAt ? formatDateTime(payment.paidAt) : '—'}</Row>
            <Row label={<Trans>Transaction number</Trans>}>{payment.transactionNo ?? '—'}</Row>
            {payment.status === 'unpaid' ? (
              <Row label={<Trans>Payable until</Trans>}>{formatDateTime(payment.expiresAt)}</Row>
            ) : null}
            {payment.status === 'unpaid' && payment.paymentUrl ? (
              <Row label={<Trans>Payment link</Trans>}>
                <a
                  href={payment.paymentUrl}
                  className="text-primary hover:underline"
                  data-testid="payment-link"
                >
                  {payment.paymentUrl}
                </a>
              </Row>
            ) : null}
          </dl>
        ) : null}
        {payment?.status === 'unpaid' ? (
          <p className="rounded-md bg-warning/10 p-3 text-sm text-warning" data-testid="pay-first">
            <Trans>Please pay first, then refresh to see the new status.</Trans>
          </p>
        ) : null}
        {payment?.status === 'expired' ? (
          <p className="rounded-md bg-muted p-3 text-muted-foreground text-sm" data-testid="bill-closed">
            <Trans>This bill can no longer be paid. A new recharge makes a new bill.</Trans>
          </p>
        ) : null}
        {payment?.status === 'unknown' ? (
          <p className="rounded-md bg-muted p-3 text-muted-foreground text-sm" data-testid="bill-unknown">
            <Trans>
              The payment provider could not tell whether this bill was paid. Refresh later: if it was, the
              amount is credited then.
            </Trans>
          </p>
        ) : null}
        <DialogFooter>
          {payable && payment?.status === 'unpaid' && payment.paymentUrl ? (
            <Button asChild variant="outline">
              <a href={payment.paymentUrl}>
                <ExternalLinkIcon />
                <Trans>Pay now</Trans>
              </a>
            </Button>
          ) : null}
          {payment ? (
            <Button
              onClick={() => props.onRefresh(payment)}
              disabled={props.refreshing}
              data-testid="payment-refresh"
            >
              {props.refreshing ? <Spinner /> : <RefreshCwIcon />}
              <Trans>Refresh</Trans>
            </Button>
          ) : null}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
