// What changing plans costs: the price of the new plan less the unused part of the period already paid for, which
// is credited back to the balance rather than lost. Buying the plan one holds extends it, so nothing is credited.
import type { Plan, Subscription } from '@rooms/db';

/**
 * The part of a subscription's price its remaining time stands for, pro rata by time, in whole cents rounded down
 * (never more than was paid). A free, granted or permanent subscription paid nothing and gets nothing back.
 */
export function unusedCents(
  subscription: Pick<Subscription, 'startsAt' | 'expiresAt' | 'priceCents'>,
  now: Date,
): number {
  const { startsAt, expiresAt, priceCents } = subscription;
  if (!expiresAt || priceCents <= 0) return 0;
  const total = expiresAt.getTime() - startsAt.getTime();
  const left = expiresAt.getTime() - Math.max(now.getTime(), startsAt.getTime());
  if (total <= 0 || left <= 0) return 0;
  // In BigInt: a large price times a year in milliseconds is beyond a double's exact integers.
  return Number((BigInt(priceCents) * BigInt(left)) / BigInt(total));
}

export interface TPlanChange {
  /** Buying the plan held: its period is extended instead of replaced. */
  renews: boolean;
  priceCents: number;
  /** The unused part of the plan held now, credited when it ends. */
  creditCents: number;
  /** What the balance goes down by (negative: up, when the credit is larger than the price). */
  netCents: number;
}

export function planChange(current: Subscription | null, plan: Plan, now: Date): TPlanChange {
  const renews = current !== null && current.plan.id === plan.id && current.expiresAt != null;
  const creditCents = renews || !current ? 0 : unusedCents(current, now);
  return { renews, priceCents: plan.priceCents, creditCents, netCents: plan.priceCents - creditCents };
}
