import type { EntityManager } from '@mikro-orm/core';
import { Plan } from './entities/plan.entity';
import { Subscription } from './entities/subscription.entity';

/**
 * The plan a user holds at `now`: their newest live subscription's plan, else the default (Free) plan.
 * The one place that answers this, so rooms, billing and the plan screen never disagree.
 */
export async function planOf(em: EntityManager, userId: string, now: Date = new Date()): Promise<Plan> {
  const subscription = await em.findOne(
    Subscription,
    { user: userId, startsAt: { $lte: now }, $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }] },
    { populate: ['plan'], orderBy: { startsAt: 'desc' } },
  );
  if (subscription) return subscription.plan;
  const fallback = await em.findOne(Plan, { isDefault: true }, { orderBy: { sortOrder: 'asc' } });
  if (!fallback) throw new Error('No default plan in the database: the seeders have not run');
  return fallback;
}
