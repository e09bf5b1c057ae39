// Holding a plan: buying (debits the balance less the unused part of the plan it replaces, ends the previous
// subscription at once, takes one copy of the inventory), renewing the plan one holds (extends it), claiming the
// free plan once, the auto-renew switch, and the account level that follows the plan held.
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Plan, Subscription, type User } from '@rooms/db';
import { AppError } from '../../errors';
import { isUuid } from '../../schemas/common';
import { defaultPlan } from './catalog';
import { appendEntry, balanceCents, lockAccount } from './ledger';
import { formatDollars } from './money';
import { planChange, type TPlanChange } from './proration';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The account level while holding `plan`: the plan's, or the level an administrator set when that is higher. */
export function levelFor(user: Pick<User, 'adminLevel'>, plan: Pick<Plan, 'level'>): number {
  return Math.max(plan.level, user.adminLevel ?? 0);
}

/** The user's newest live subscription, the one `planOf` reads the plan from; null: the default plan applies. */
export function currentSubscription(
  em: EntityManager,
  userId: string,
  now: Date,
): Promise<Subscription | null> {
  return em.findOne(
    Subscription,
    { user: userId, startsAt: { $lte: now }, $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }] },
    { populate: ['plan'], orderBy: { startsAt: 'desc' } },
  );
}

/** Whether the user ever claimed the free plan (it can be claimed once). */
export async function hasClaimedFree(em: EntityManager, userId: string): Promise<boolean> {
  return (await em.count(Subscription, { user: userId, plan: { isDefault: true } })) > 0;
}

interface TTerms {
  startsAt: Date;
  /** Null: permanent (the free plan). */
  expiresAt: Date | null;
  autoRenew: boolean;
  /** What was paid for the period, integer cents (0 when given or claimed). */
  priceCents: number;
}

/** Starts a subscription to `plan` on these terms with the plan's time quota; the account level follows the plan. */
function startSubscription(em: EntityManager, user: User, plan: Plan, terms: TTerms): Subscription {
  const subscription = em.create(Subscription, {
    user,
    plan,
    ...terms,
    timeQuotaSeconds: plan.timeQuotaMinutes * 60,
    closedAt: null,
  });
  user.level = levelFor(user, plan);
  return subscription;
}

/**
 * Puts `plan` in place of the subscription held now (if any): that one ends at once, closed so that the expiry job
 * leaves it alone, and the new one starts now. Buying a plan and an administrator's grant both replace this way.
 */
function replaceSubscription(
  em: EntityManager,
  user: User,
  previous: Subscription | null,
  plan: Plan,
  terms: Omit<TTerms, 'startsAt'> & { now: Date },
): Subscription {
  const { now, ...rest } = terms;
  if (previous) {
    previous.expiresAt = now;
    previous.closedAt = now;
  }
  return startSubscription(em, user, plan, { startsAt: now, ...rest });
}

/** Takes one copy of a plan with a limited inventory; false when none is left. The row lock queues concurrent buyers. */
async function takeCopy(em: EntityManager, plan: Plan): Promise<boolean> {
  if (plan.inventory == null) return true;
  const rows = await em.execute<{ inventory: number }[]>(
    'update plans set inventory = inventory - 1 where id = ? and inventory > 0 returning inventory',
    [plan.id],
  );
  return rows.length > 0;
}

/** Debits a plan's price, refusing when the balance (read under the account lock) does not cover it. */
async function debit(
  em: EntityManager,
  user: User,
  plan: Plan,
  kind: 'purchase' | 'renewal',
): Promise<number> {
  const balance = await balanceCents(em, user.id);
  if (balance < plan.priceCents) {
    throw new AppError('INSUFFICIENT_BALANCE', {
      args: [formatDollars(plan.priceCents), formatDollars(balance)],
    });
  }
  if (plan.priceCents > 0) {
    await appendEntry(em, {
      userId: user.id,
      amountCents: -plan.priceCents,
      kind: 'purchase',
      externalKey: `${kind}:${randomUUID()}`,
      note: `${kind === 'renewal' ? 'Renewal' : 'Purchase'}: ${plan.name}`,
    });
  }
  return balance - plan.priceCents;
}

export interface TPurchase {
  subscription: Subscription;
  /** Balance left, integer cents. */
  balanceCents: number;
  /** True when the plan already held was extended rather than replaced. */
  renewed: boolean;
  /** The unused part of the plan replaced, credited to the balance (integer cents; 0 on a renewal). */
  creditCents: number;
  /** The account level now (the plan's, or an administrator's when higher). */
  level: number;
}

export interface TPurchaseQuote extends TPlanChange {
  plan: Plan;
  balanceCents: number;
  /** The balance after the purchase; negative when it does not cover it. */
  balanceAfterCents: number;
}

type TPlanForSale = Plan & { durationDays: number };

async function offeredForSale(em: EntityManager, planId: string): Promise<TPlanForSale> {
  if (!isUuid(planId)) throw new AppError('PLAN_NOT_FOUND');
  const plan = await em.findOne(Plan, { id: planId, enabled: true });
  if (!plan) throw new AppError('PLAN_NOT_FOUND');
  if (plan.isDefault || plan.durationDays == null) throw new AppError('FREE_PLAN_NOT_FOR_SALE');
  return plan as TPlanForSale;
}

function insufficient(change: TPlanChange, balance: number): AppError {
  return change.creditCents > 0
    ? new AppError('INSUFFICIENT_BALANCE_AFTER_CREDIT', {
        args: [formatDollars(change.priceCents), formatDollars(change.creditCents), formatDollars(balance)],
      })
    : new AppError('INSUFFICIENT_BALANCE', {
        args: [formatDollars(change.priceCents), formatDollars(balance)],
      });
}

/**
 * What buying a plan would cost now, as the confirmation shows it: the price, the credit for the unused part of the
 * plan held, and the balance before and after. The purchase itself computes the same under the account lock.
 */
export async function quotePurchase(
  em: EntityManager,
  userId: string,
  planId: string,
  now: Date,
): Promise<TPurchaseQuote> {
  const plan = await offeredForSale(em, planId);
  const [current, balance] = await Promise.all([
    currentSubscription(em, userId, now),
    balanceCents(em, userId),
  ]);
  const change = planChange(current, plan, now);
  return { ...change, plan, balanceCents: balance, balanceAfterCents: balance - change.netCents };
}

/**
 * Buys a plan with the balance, all in one transaction under the account lock: the credit for the unused part of
 * the plan replaced, the debit, the copy of the inventory, the end of the previous subscription and the new one
 * commit together or not at all. Buying the paid plan one already holds renews it: the period and its time quota
 * are added to the current one.
 */
export function purchasePlan(
  em: EntityManager,
  userId: string,
  planId: string,
  now: Date,
): Promise<TPurchase> {
  if (!isUuid(planId)) return Promise.reject(new AppError('PLAN_NOT_FOUND'));
  return em.transactional(async (tx) => {
    const user = await lockAccount(tx, userId);
    const plan = await offeredForSale(tx, planId);
    const current = await currentSubscription(tx, userId, now);
    if (!(await takeCopy(tx, plan))) throw new AppError('PLAN_SOLD_OUT');
    const change = planChange(current, plan, now);
    const balance = await balanceCents(tx, user.id);
    if (balance < change.netCents) throw insufficient(change, balance);
    const period = plan.durationDays * DAY_MS;
    const quota = plan.timeQuotaMinutes * 60;

    if (change.renews && current?.expiresAt) {
      await debit(tx, user, plan, 'renewal');
      current.expiresAt = new Date(current.expiresAt.getTime() + period);
      current.timeQuotaSeconds += quota;
      current.priceCents += plan.priceCents;
      user.level = levelFor(user, plan);
      await tx.flush();
      return {
        subscription: current,
        balanceCents: balance - plan.priceCents,
        renewed: true,
        creditCents: 0,
        level: user.level,
      };
    }

    // Buying a plan makes the subscription it replaces expire at once; what was paid for the time it had left
    // comes back to the balance (once per subscription: the key is its id).
    if (current && change.creditCents > 0) {
      await appendEntry(tx, {
        userId: user.id,
        amountCents: change.creditCents,
        kind: 'refund',
        externalKey: `proration:${current.id}`,
        note: `Unused part of ${current.plan.name}`,
      });
    }
    if (plan.priceCents > 0) {
      await appendEntry(tx, {
        userId: user.id,
        amountCents: -plan.priceCents,
        kind: 'purchase',
        externalKey: `purchase:${randomUUID()}`,
        note: `Purchase: ${plan.name}`,
      });
    }
    const subscription = replaceSubscription(tx, user, current, plan, {
      now,
      expiresAt: new Date(now.getTime() + period),
      autoRenew: current?.autoRenew ?? false,
      priceCents: plan.priceCents,
    });
    await tx.flush();
    return {
      subscription,
      balanceCents: balance - change.netCents,
      renewed: false,
      creditCents: change.creditCents,
      level: user.level,
    };
  });
}

/**
 * An administrator gives a plan for a number of days, free of charge and outside the inventory: like a purchase, the
 * plan held until now ends at once, and the new period brings the plan's time quota and level. Auto-renew is off, so
 * a granted plan never starts debiting the balance by itself.
 */
export function grantPlan(
  em: EntityManager,
  input: { userId: string; planId: string; days: number },
  now: Date,
): Promise<{ subscription: Subscription; previous: Subscription | null }> {
  return em.transactional(async (tx) => {
    const user = await lockAccount(tx, input.userId);
    const plan = await tx.findOne(Plan, input.planId);
    if (!plan) throw new AppError('PLAN_NOT_FOUND');
    const previous = await currentSubscription(tx, user.id, now);
    const subscription = replaceSubscription(tx, user, previous, plan, {
      now,
      expiresAt: new Date(now.getTime() + input.days * DAY_MS),
      autoRenew: false,
      priceCents: 0,
    });
    await tx.flush();
    return { subscription, previous };
  });
}

/** Claims the permanent free plan, once per account, bringing its one-time time quota. */
export function claimFreePlan(em: EntityManager, userId: string, now: Date): Promise<Subscription> {
  return em.transactional(async (tx) => {
    const user = await lockAccount(tx, userId);
    if (await hasClaimedFree(tx, userId)) throw new AppError('FREE_PLAN_CLAIMED');
    const current = await currentSubscription(tx, userId, now);
    if (current && !current.plan.isDefault) throw new AppError('FREE_PLAN_WHILE_PAID');
    const plan = await defaultPlan(tx);
    const subscription = startSubscription(tx, user, plan, {
      startsAt: now,
      expiresAt: null,
      autoRenew: false,
      priceCents: 0,
    });
    await tx.flush();
    return subscription;
  });
}

export interface TRenewSwitch {
  subscription: Subscription;
  /** What the next renewal will debit: the plan's price now, integer cents. */
  renewalPriceCents: number;
  balanceCents: number;
  /** How much the balance lacks for that renewal; 0 when it covers it (or auto-renew is off). */
  shortCents: number;
}

/**
 * Turns auto-renew on or off for the paid plan held now. Switching it on with a balance below the next renewal's
 * price is allowed (there is time to recharge before the period ends), but the answer says how much is missing, so
 * nobody believes their plan will renew when it would lapse.
 */
export function switchRenew(
  em: EntityManager,
  userId: string,
  flag: boolean,
  now: Date,
): Promise<TRenewSwitch> {
  return em.transactional(async (tx) => {
    await lockAccount(tx, userId);
    const current = await currentSubscription(tx, userId, now);
    if (!current || current.expiresAt == null || current.plan.isDefault)
      throw new AppError('RENEW_NEEDS_PAID_PLAN');
    current.autoRenew = flag;
    await tx.flush();
    const balance = await balanceCents(tx, userId);
    const renewalPriceCents = current.plan.priceCents;
    return {
      subscription: current,
      renewalPriceCents,
      balanceCents: balance,
      shortCents: flag ? Math.max(0, renewalPriceCents - balance) : 0,
    };
  });
}

export type TRenewalOutcome =
  | { kind: 'renewed'; userId: string; planName: string }
  | { kind: 'lapsed'; userId: string; planName: string };

/**
 * Deals with one subscription whose period is over: renews it when auto-renew is on and the balance covers the
 * price (a successor starting where it ended), else lets it lapse so the account falls back to the default plan.
 * Idempotent: a subscription already closed, or replaced by a purchase, is left alone.
 */
export function settleExpiry(
  em: EntityManager,
  subscriptionId: string,
  now: Date,
): Promise<TRenewalOutcome | null> {
  return em.transactional(async (tx) => {
    const ended = await tx.findOne(Subscription, subscriptionId, { populate: ['plan'] });
    if (!ended) return null;
    const user = await lockAccount(tx, ended.user.id);
    await tx.refresh(ended);
    if (ended.closedAt || !ended.expiresAt || ended.expiresAt > now) return null;
    ended.closedAt = now;
    const plan = ended.plan;

    const newer = await tx.count(Subscription, {
      user: user.id,
      startsAt: { $gt: ended.startsAt },
      id: { $ne: ended.id },
    });
    if (newer > 0) {
      await tx.flush();
      return null;
    }

    if (ended.autoRenew && plan.enabled && plan.durationDays != null && !plan.isDefault) {
      const balance = await balanceCents(tx, user.id);
      if (balance >= plan.priceCents && (await takeCopy(tx, plan))) {
        await debit(tx, user, plan, 'renewal');
        const startsAt = ended.expiresAt;
        startSubscription(tx, user, plan, {
          startsAt,
          expiresAt: new Date(startsAt.getTime() + plan.durationDays * DAY_MS),
          autoRenew: true,
          priceCents: plan.priceCents,
        });
        await tx.flush();
        return { kind: 'renewed', userId: user.id, planName: plan.name };
      }
    }

    const fallback = await defaultPlan(tx);
    user.level = levelFor(user, fallback);
    await tx.flush();
    return { kind: 'lapsed', userId: user.id, planName: plan.name };
  });
}

/** Subscriptions whose period is over and whose end nobody has dealt with yet, oldest first. */
export async function dueExpiries(em: EntityManager, now: Date, limit = 100): Promise<string[]> {
  const due = await em.find(
    Subscription,
    { closedAt: null, expiresAt: { $ne: null, $lte: now } },
    { fields: ['id'], orderBy: { expiresAt: 'asc' }, limit },
  );
  return due.map((subscription) => subscription.id);
}
