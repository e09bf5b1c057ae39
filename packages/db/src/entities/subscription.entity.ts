import { randomUUID } from 'node:crypto';
import { defineEntity, p } from '@mikro-orm/core';
import { Plan } from './plan.entity';
import { User } from './user.entity';

/**
 * A plan a user holds for a period. A user with none live holds the default plan (see `planOf`). Buying a plan
 * ends the previous subscription at once (its `expiresAt` becomes the purchase time); renewal starts a successor
 * at the old one's expiry.
 */
const SubscriptionSchema = defineEntity({
  name: 'Subscription',
  tableName: 'subscriptions',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    plan: () => p.manyToOne(Plan),
    startsAt: p.datetime(),
    /** Null: permanent. */
    expiresAt: p.datetime().nullable(),
    autoRenew: p.boolean().default(false),
    /** Room seconds left of the plan's time quota for this period. */
    timeQuotaSeconds: p.integer().default(0),
    /** What this period cost, integer cents; 0 for the Free plan. */
    priceCents: p.integer().default(0),
    /** When its end was dealt with (renewed, fell back to Free, or replaced by a purchase); null while open. */
    closedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  // The question asked is always "this user's newest live subscription".
  indexes: [{ properties: ['user', 'startsAt'] }],
  checks: [{ name: 'subscriptions_time_quota_seconds_check', expression: 'time_quota_seconds >= 0' }],
});

export class Subscription extends SubscriptionSchema.class {}
SubscriptionSchema.setClass(Subscription);
