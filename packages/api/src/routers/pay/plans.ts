// The plan calls: the catalogue, the caller's plan with its quotas, buying, claiming the free plan, auto-renew.
import { planOf } from '@rooms/db';
import { z } from 'zod';
import {
  balanceCents,
  claimFreePlan as claimFree,
  currentSubscription,
  hasClaimedFree,
  offeredPlans,
  planView,
  purchasePlan,
  quotaOf,
  switchRenew as setAutoRenew,
  toDollars,
} from '../../domains/billing';
import { ownSessionProcedure, protectedProcedure } from '../../trpc';
import {
  ZPayPlanReply,
  ZPayPlanRequest,
  ZPlanList,
  ZSwitchRenewReply,
  ZSwitchRenewRequest,
  ZUserPlan,
} from './pay.types';

export const getPlanList = protectedProcedure
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

export const payPlan = ownSessionProcedure
  .meta({
    summary:
      'Buy a plan with the balance: the previous plan ends at once; buying the plan held renews it. Refused when the balance is short or the plan is sold out.',
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
      balance: toDollars(purchase.balanceCents),
      level: plan.level,
    };
  });

export const claimFreePlan = ownSessionProcedure
  .meta({ summary: 'Claim the permanent free plan (once per account) and its one-time time quota.' })
  .input(z.object({}).optional())
  .output(ZPayPlanReply)
  .mutation(async ({ ctx }) => {
    const subscription = await claimFree(ctx.em, ctx.session.user.id, ctx.services.now());
    return {
      plan: planView(subscription.plan),
      expiresAt: null,
      renewed: false,
      balance: toDollars(await balanceCents(ctx.em, ctx.session.user.id)),
      level: subscription.plan.level,
    };
  });

export const switchRenew = ownSessionProcedure
  .meta({ summary: 'Turn auto-renew of the paid plan held on (flag=true) or off (flag=false).' })
  .input(ZSwitchRenewRequest)
  .output(ZSwitchRenewReply)
  .mutation(async ({ ctx, input }) => {
    const subscription = await setAutoRenew(ctx.em, ctx.session.user.id, input.flag, ctx.services.now());
    return { autoRenew: subscription.autoRenew, expiresAt: subscription.expiresAt ?? null };
  });
