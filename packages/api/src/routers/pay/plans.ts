// The plan calls: the catalogue, the caller's plan with its quotas, buying, claiming the free plan, auto-renew.
import { planOf } from '@rooms/db';
import { z } from 'zod';
import {
  balanceCents,
  claimFreePlan as claimFree,
  currentSubscription,
  formatDollars,
  hasClaimedFree,
  offeredPlans,
  planView,
  purchasePlan,
  quotaOf,
  quotePurchase,
  switchRenew as setAutoRenew,
  toDollars,
} from '../../domains/billing';
import { OWN_SESSION_ERRORS } from '../../rest/rest-meta';
import { ownSessionProcedure, protectedProcedure } from '../../trpc';
import {
  ZPayPlanReply,
  ZPayPlanRequest,
  ZPlanList,
  ZQuotePlanReply,
  ZSwitchRenewReply,
  ZSwitchRenewRequest,
  ZUserPlan,
} from './pay.types';

const usd = (cents: number) => `${formatDollars(cents)} USD`;

export const getPlanList = protectedProcedure
  .meta({ rest: { method: 'GET', path: '/api/pay/getPlanList', tag: 'Pay', errors: [] } })
  .meta({
    summary: 'The plans on offer, with price, limits, quotas, inventory and which one the caller holds.',
  })
  .input(z.object({}).optional())
  .output(ZPlanList)
  .query(async ({ ctx }) => {
    const userId = ctx.session.user.id;
    const now = ctx.services.now();
    const [plans, held, claimed] = await Promise.all([
      offeredPlans(ctx.em),
      planOf(ctx.em, userId, now),
      hasClaimedFree(ctx.em, userId),
    ]);
    return plans.map((plan) => ({
      ...planView(plan),
      current: plan.id === held.id,
      claimable: plan.isDefault && !claimed && held.isDefault,
      claimed: plan.isDefault && claimed,
    }));
  });

export const getUserPlan = protectedProcedure
  .meta({ rest: { method: 'GET', path: '/api/pay/getUserPlan', tag: 'Pay', errors: [] } })
  .meta({
    summary:
      'The caller’s plan: its limits, time quota and free time quota left, auto-renew, and expiry (or permanent).',
  })
  .input(z.object({}).optional())
  .output(ZUserPlan)
  .query(async ({ ctx }) => {
    const userId = ctx.session.user.id;
    const now = ctx.services.now();
    const [plan, subscription, quota, claimed, balance] = await Promise.all([
      planOf(ctx.em, userId, now),
      currentSubscription(ctx.em, userId, now),
      quotaOf(ctx.em, userId, now),
      hasClaimedFree(ctx.em, userId),
      balanceCents(ctx.em, userId),
    ]);
    const expiresAt = subscription?.expiresAt ?? null;
    return {
      plan: planView(plan),
      claimed: !plan.isDefault || claimed,
      startsAt: subscription?.startsAt ?? null,
      expiresAt,
      permanent: expiresAt === null,
      autoRenew: subscription?.autoRenew ?? false,
      canAutoRenew: subscription !== null && expiresAt !== null && !plan.isDefault,
      remainingTimeQuotaSeconds: quota.timeSeconds,
      remainingFreeTimeQuotaSeconds: quota.freeSeconds,
      freeTimeQuotaResetsAt: quota.freeResetsAt,
      level: ctx.session.user.level,
      balance: toDollars(balance),
    };
  });

export const quotePlan = protectedProcedure
  .meta({
    rest: {
      method: 'GET',
      path: '/api/pay/quotePlan',
      tag: 'Pay',
      errors: ['PLAN_NOT_FOUND', 'FREE_PLAN_NOT_FOR_SALE'],
    },
  })
  .meta({
    summary:
      'What buying a plan would cost now: its price, the credit for the unused part of the plan held (pro rata), the net price and the balance after.',
  })
  .input(ZPayPlanRequest)
  .output(ZQuotePlanReply)
  .query(async ({ ctx, input }) => {
    const quote = await quotePurchase(ctx.em, ctx.session.user.id, input.id, ctx.services.now());
    return {
      plan: planView(quote.plan),
      renews: quote.renews,
      price: toDollars(quote.priceCents),
      credit: toDollars(quote.creditCents),
      net: toDollars(quote.netCents),
      balance: toDollars(quote.balanceCents),
      balanceAfter: toDollars(quote.balanceAfterCents),
      missing: toDollars(Math.max(0, -quote.balanceAfterCents)),
    };
  });

export const payPlan = ownSessionProcedure
  .meta({
    rest: {
      method: 'GET',
      path: '/api/pay/payPlan',
      tag: 'Pay',
      errors: [
        ...OWN_SESSION_ERRORS,
        'PLAN_NOT_FOUND',
        'FREE_PLAN_NOT_FOR_SALE',
        'INSUFFICIENT_BALANCE',
        'INSUFFICIENT_BALANCE_AFTER_CREDIT',
        'PLAN_SOLD_OUT',
      ],
    },
  })
  .meta({
    summary:
      'Buy a plan with the balance: the previous plan ends at once and the unused part of it is credited (pro rata); buying the plan held renews it. Refused when the balance is short or the plan is sold out.',
  })
  .input(ZPayPlanRequest)
  .output(ZPayPlanReply)
  .mutation(async ({ ctx, input }) => {
    const purchase = await purchasePlan(ctx.em, ctx.session.user.id, input.id, ctx.services.now());
    const plan = purchase.subscription.plan;
    return {
      plan: planView(plan),
      expiresAt: purchase.subscription.expiresAt ?? null,
      renewed: purchase.renewed,
      credit: toDollars(purchase.creditCents),
      balance: toDollars(purchase.balanceCents),
      level: purchase.level,
    };
  });

export const claimFreePlan = ownSessionProcedure
  .meta({
    rest: {
      method: 'POST',
      path: '/api/pay/claimFreePlan',
      tag: 'Pay',
      errors: [...OWN_SESSION_ERRORS, 'FREE_PLAN_CLAIMED', 'FREE_PLAN_WHILE_PAID'],
    },
  })
  .meta({ summary: 'Claim the permanent free plan (once per account) and its one-time time quota.' })
  .input(z.object({}).optional())
  .output(ZPayPlanReply)
  .mutation(async ({ ctx }) => {
    const subscription = await claimFree(ctx.em, ctx.session.user.id, ctx.services.now());
    return {
      plan: planView(subscription.plan),
      expiresAt: null,
      renewed: false,
      credit: 0,
      balance: toDollars(await balanceCents(ctx.em, ctx.session.user.id)),
      level: subscription.user.level,
    };
  });

export const switchRenew = ownSessionProcedure
  .meta({
    rest: {
      method: 'GET',
      path: '/api/pay/switchRenew',
      tag: 'Pay',
      errors: [...OWN_SESSION_ERRORS, 'RENEW_NEEDS_PAID_PLAN'],
    },
  })
  .meta({
    summary:
      'Turn auto-renew of the paid plan held on (flag=true) or off (flag=false). Switching it on with a balance below the next renewal’s price is allowed, with a warning saying how much is missing.',
  })
  .input(ZSwitchRenewRequest)
  .output(ZSwitchRenewReply)
  .mutation(async ({ ctx, input }) => {
    const renew = await setAutoRenew(ctx.em, ctx.session.user.id, input.flag, ctx.services.now());
    const expiresAt = renew.subscription.expiresAt ?? null;
    return {
      autoRenew: renew.subscription.autoRenew,
      expiresAt,
      renewalPrice: toDollars(renew.renewalPriceCents),
      balance: toDollars(renew.balanceCents),
      missing: toDollars(renew.shortCents),
      warning:
        renew.shortCents > 0
          ? `Your balance (${usd(renew.balanceCents)}) does not cover the next renewal (${usd(renew.renewalPriceCents)}) on ${expiresAt?.toISOString() ?? ''}: recharge ${usd(renew.shortCents)} more by then, or the plan will lapse instead of renewing`
          : null,
    };
  });
