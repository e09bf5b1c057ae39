import { randomUUID } from 'node:crypto';
import { defineEntity, p } from '@mikro-orm/core';
import { Plan } from './plan.entity';
import { User } from './user.entity';

/** A plan a user holds for a period. A user with none live holds the default plan (see `planOf`). */
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
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  // The question asked is always "this user's newest live subscription".
  indexes: [{ properties: ['user', 'startsAt'] }],
});

export class Subscription extends SubscriptionSchema.class {}
SubscriptionSchema.setClass(Subscription);
