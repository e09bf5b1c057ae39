import { useLingui } from '@lingui/react/macro';
import { Badge } from '@rooms/ui/badge';
import { paymentStatusLabel, type TPaymentStatus } from '../../../../lib/billing';

const variants = {
  paid: 'default',
  unpaid: 'warning',
  expired: 'secondary',
  unknown: 'outline',
} as const;

export function PaymentStatusBadge({ status }: { status: TPaymentStatus }) {
  const { i18n } = useLingui();
  return (
    <Badge variant={variants[status]} data-testid="payment-status" data-status={status}>
      {paymentStatusLabel(i18n, status)}
    </Badge>
  );
}
