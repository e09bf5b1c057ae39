// The bill calls: recharge (a new unpaid bill and its payment link), the bill list and one bill, the methods on
// offer, and refresh (asks the provider and stores the answer).
import { z } from 'zod';
import {
  billsOf,
  createRecharge,
  ownBill,
  paymentView,
  RECHARGE_LIMITS,
  RECHARGE_PRESETS,
  refreshPayment,
  toCents,
  toDollars,
} from '../../domains/billing';
import { AppError } from '../../errors';
import { OWN_SESSION_ERRORS } from '../../rest/rest-meta';
import { siteUrls } from '../../site-urls';
import { ownSessionProcedure, protectedProcedure } from '../../trpc';
import {
  ZPayInfoRequest,
  ZPayList,
  ZPayListRequest,
  ZPayment,
  ZPaymentMethods,
  ZRechargeRequest,
  ZRefreshRequest,
} from './pay.types';

export const recharge = ownSessionProcedure
  .meta({
    rest: {
      method: 'POST',
      path: '/api/pay/recharge',
      tag: 'Pay',
      errors: [
        ...OWN_SESSION_ERRORS,
        'RECHARGE_AMOUNT_RANGE',
        'PAYMENT_METHOD_UNAVAILABLE',
        'PAYMENT_PROVIDER_FAILED',
      ],
    },
  })
  .meta({
    summary:
      'Recharge the balance: creates an unpaid bill with its payment link, an absolute address (method from getPayment, amount in dollars). With returnTo, the payer comes back to that page of the site once the bill is paid.',
  })
  .input(ZRechargeRequest)
  .output(ZPayment)
  .mutation(async ({ ctx, input }) => {
    const amountCents = toCents(input.amount);
    if (amountCents === null) {
      throw new AppError('RECHARGE_AMOUNT_RANGE', {
        args: [toDollars(RECHARGE_LIMITS.minCents), toDollars(RECHARGE_LIMITS.maxCents)],
      });
    }
    const { publicUrl } = siteUrls(ctx);
    const back = input.returnTo ? `&returnTo=${encodeURIComponent(input.returnTo)}` : '';
    const now = ctx.services.now();
    const payment = await createRecharge(
      ctx.em,
      ctx.services.payments,
      {
        userId: ctx.session.user.id,
        method: input.method,
        amountCents,
        returnUrl: `${publicUrl}/bill?out_trade_no={out_trade_no}${back}`,
        siteUrl: publicUrl,
        subject: `${ctx.services.config.siteName} balance recharge`,
      },
      now,
    );
    return paymentView(payment, now);
  });

export const getPayList = protectedProcedure
  .meta({ rest: { method: 'GET', path: '/api/pay/getPayList', tag: 'Pay', errors: [] } })
  .meta({ summary: 'The caller’s bills, newest first, a page at a time.' })
  .input(ZPayListRequest)
  .output(ZPayList)
  .query(async ({ ctx, input }) => {
    const { items, total } = await billsOf(ctx.em, ctx.session.user.id, input);
    const now = ctx.services.now();
    return {
      items: items.map((payment) => paymentView(payment, now)),
      total,
      page: input.page,
      pageSize: input.pageSize,
    };
  });

export const getPayInfo = protectedProcedure
  .meta({ rest: { method: 'GET', path: '/api/pay/getPayInfo', tag: 'Pay', errors: ['PAYMENT_NOT_FOUND'] } })
  .meta({ summary: 'One of the caller’s bills by its id.' })
  .input(ZPayInfoRequest)
  .output(ZPayment)
  .query(async ({ ctx, input }) =>
    paymentView(await ownBill(ctx.em, ctx.session.user.id, { id: input.id }), ctx.services.now()),
  );

export const getPayment = protectedProcedure
  .meta({ rest: { method: 'GET', path: '/api/pay/getPayment', tag: 'Pay', errors: [] } })
  .meta({ summary: 'The payment methods on offer, suggested amounts and the amount limits.' })
  .input(z.object({}).optional())
  .output(ZPaymentMethods)
  .query(({ ctx }) => {
    const gateway = ctx.services.payments;
    return {
      methods: gateway.providers.map((provider) => ({
        method: provider.method,
        name: provider.name,
        currency: provider.currency,
      })),
      presets: [...RECHARGE_PRESETS],
      minAmount: toDollars(RECHARGE_LIMITS.minCents),
      maxAmount: toDollars(RECHARGE_LIMITS.maxCents),
      expiresInMinutes: Math.round(gateway.paymentTtlMs / 60_000),
    };
  });

export const refresh = protectedProcedure
  .meta({
    rest: {
      method: 'GET',
      path: '/api/pay/refresh',
      tag: 'Pay',
      errors: ['PAYMENT_NOT_FOUND', 'PAYMENT_PROVIDER_FAILED'],
    },
  })
  .meta({ summary: 'Ask the payment provider about a bill (by out_trade_no) and return its updated status.' })
  .input(ZRefreshRequest)
  .output(ZPayment)
  .mutation(async ({ ctx, input }) => {
    const payment = await ownBill(ctx.em, ctx.session.user.id, { outTradeNo: input.out_trade_no });
    const now = ctx.services.now();
    return paymentView(await refreshPayment(ctx.em, ctx.services.payments, payment, now), now);
  });
