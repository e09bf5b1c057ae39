// How money, room time and bill states read on the billing screens. Amounts arrive in dollars.
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { isReturnPath, type TPayment } from '@rooms/api/client';
import { showToast } from '@rooms/ui/toaster';
import { describeError } from './messages';

export function formatMoney(i18n: I18n, dollars: number): string {
  return i18n.number(dollars, { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });
}

/** Room time as hours and minutes, e.g. '12 h 5 min'. */
export function formatRoomTime(i18n: I18n, seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return i18n._(msg`${rest} min`);
  if (rest === 0) return i18n._(msg`${hours} h`);
  return i18n._(msg`${hours} h ${rest} min`);
}

export type TPaymentStatus = TPayment['status'];

export function paymentStatusLabel(i18n: I18n, status: TPaymentStatus): string {
  switch (status) {
    case 'paid':
      return i18n._(msg`Paid`);
    case 'unpaid':
      return i18n._(msg`Unpaid`);
    case 'expired':
      return i18n._(msg`Expired`);
    default:
      return i18n._(msg`Unknown`);
  }
}

export function paymentMethodLabel(i18n: I18n, method: string): string {
  switch (method) {
    case 'sandbox':
      return i18n._(msg`Sandbox (test money)`);
    case 'stripe':
      return i18n._(msg`Card (Stripe)`);
    case 'alipay':
      return i18n._(msg`Alipay`);
    default:
      return method;
  }
}

/** The purchase refusals: 'Purchase failed {0}' and 'Switching failed {0}', with the server's reason translated. */
export function toastPlanFailure(i18n: I18n, kind: 'purchase' | 'switch', error: unknown): void {
  // The reason is read inside the message, so the catalogue keeps the spec's own '{0}' placeholder.
  const detail =
    kind === 'purchase'
      ? i18n._(msg`Purchase failed ${describeError(i18n, error).text}`)
      : i18n._(msg`Switching failed ${describeError(i18n, error).text}`);
  showToast({ severity: 'error', summary: i18n._(msg`Error`), detail });
}

/** The recharge page's search: the amount a purchase lacks (dollars) and the page to come back to once paid. */
export interface TRechargeSearch {
  amount?: number;
  returnTo?: string;
}

/** Reads the recharge page's search params; anything else (an amount that is no amount, an address elsewhere) is dropped. */
export function parseRechargeSearch(search: Record<string, unknown>): TRechargeSearch {
  const amount = Number(search.amount);
  return {
    ...(Number.isFinite(amount) && amount > 0 ? { amount: Math.ceil(amount * 100 - 1e-6) / 100 } : {}),
    ...(isReturnPath(search.returnTo) ? { returnTo: search.returnTo } : {}),
  };
}

/** The page to come back to after paying, when it is a page of this site (never an address elsewhere). */
export function parseReturnTo(value: unknown): string | undefined {
  return isReturnPath(value) ? value : undefined;
}
