// Alipay with its official SDK: page pay (alipay.trade.page.pay) for the payment link, the asynchronous notify
// verified with Alipay's public key (RSA2), and alipay.trade.query for refresh.
import type { PaymentProvider, TProviderStatus } from '@rooms/api';
import { AppError, billing } from '@rooms/api';
import { AlipaySdk } from 'alipay-sdk';

export const ALIPAY_NOTIFY_PATH = '/api/pay/notify/alipay';

export interface TAlipayOptions {
  appId: string;
  privateKey: string;
  alipayPublicKey: string;
  /** Another gateway (Alipay's sandbox, or a local server in tests). */
  gateway?: string;
  /** Where Alipay posts its notify: PUBLIC_URL + ALIPAY_NOTIFY_PATH. */
  notifyUrl: string;
}

export type TAlipayNotification =
  | {
      kind: 'paid';
      eventId: string;
      outTradeNo: string;
      amountCents: number;
      currency: string;
      transactionNo: string;
    }
  | { kind: 'ignored'; eventId: string; outTradeNo: string; status: string };

export interface AlipayProvider extends PaymentProvider {
  /** Verifies the notify's RSA2 signature and app id; null when it does not hold. */
  parseNotify(form: Record<string, string>): TAlipayNotification | null;
}

function keyTypeOf(privateKey: string): 'PKCS1' | 'PKCS8' {
  return privateKey.includes('BEGIN PRIVATE KEY') ? 'PKCS8' : 'PKCS1';
}

/** '12.50' to 1250; null for anything that is not a plain amount. */
function centsOf(amount: unknown): number | null {
  if (typeof amount !== 'string' || !/^\d+(\.\d{1,2})?$/.test(amount)) return null;
  return billing.toCents(Number(amount));
}

/** Alipay's time format, in China Standard Time as its documentation asks. */
function alipayTime(date: Date): string {
  const cst = new Date(date.getTime() + 8 * 3_600_000).toISOString();
  return `${cst.slice(0, 10)} ${cst.slice(11, 19)}`;
}

export function createAlipayProvider(options: TAlipayOptions): AlipayProvider {
  const sdk = new AlipaySdk({
    appId: options.appId,
    privateKey: options.privateKey,
    keyType: keyTypeOf(options.privateKey),
    alipayPublicKey: options.alipayPublicKey,
    signType: 'RSA2',
    timeout: 10_000,
    ...(options.gateway ? { gateway: options.gateway } : {}),
  });

  return {
    method: 'alipay',
    name: 'Alipay',
    currency: 'usd',
    async createCheckout(request) {
      try {
        const paymentUrl = sdk.pageExec('alipay.trade.page.pay', 'GET', {
          bizContent: {
            out_trade_no: request.outTradeNo,
            product_code: 'FAST_INSTANT_TRADE_PAY',
            total_amount: (request.amountCents / 100).toFixed(2),
            subject: request.subject,
            time_expire: alipayTime(request.expiresAt),
          },
          returnUrl: request.returnUrl,
          notifyUrl: options.notifyUrl,
        });
        return { paymentUrl, providerRef: null };
      } catch (error) {
        throw new AppError('PAYMENT_PROVIDER_FAILED', { cause: error });
      }
    },
    async query(order): Promise<TProviderStatus> {
      try {
        const result = (await sdk.exec(
          'alipay.trade.query',
          { bizContent: { out_trade_no: order.outTradeNo } },
          { validateSign: true },
        )) as {
          code?: string;
          subCode?: string;
          tradeStatus?: string;
          tradeNo?: string;
          totalAmount?: string;
        };
        if (result.code === '40004' && result.subCode === 'ACQ.TRADE_NOT_EXIST') return { status: 'unpaid' };
        if (result.code !== '10000') return { status: 'unknown' };
        if (result.tradeStatus === 'TRADE_SUCCESS' || result.tradeStatus === 'TRADE_FINISHED') {
          const amountCents = centsOf(result.totalAmount);
          if (amountCents === null || !result.tradeNo) return { status: 'unknown' };
          return { status: 'paid', transactionNo: result.tradeNo, amountCents, currency: 'usd' };
        }
        if (result.tradeStatus === 'TRADE_CLOSED') return { status: 'expired' };
        return { status: 'unpaid' };
      } catch {
        return { status: 'unknown' };
      }
    },
    parseNotify(form) {
      if (!sdk.checkNotifySignV2(form)) return null;
      if (form.app_id !== options.appId) return null;
      const eventId = form.notify_id ?? '';
      const outTradeNo = form.out_trade_no ?? '';
      const status = form.trade_status ?? '';
      if (status !== 'TRADE_SUCCESS' && status !== 'TRADE_FINISHED') {
        return { kind: 'ignored', eventId, outTradeNo, status };
      }
      return {
        kind: 'paid',
        eventId,
        outTradeNo,
        amountCents: centsOf(form.total_amount) ?? -1,
        currency: 'usd',
        transactionNo: form.trade_no ?? '',
      };
    },
  };
}
