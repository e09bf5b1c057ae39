import { randomUUID } from 'node:crypto';
import { defineEntity, p } from '@mikro-orm/core';
import { User } from './user.entity';

/** Why billing did something to an account on its own: rooms stopped, a plan renewed or lapsed. */
export const billingNoticeKinds = ['quota-exhausted', 'plan-renewed', 'plan-lapsed'] as const;
export type BillingNoticeKind = (typeof billingNoticeKinds)[number];

/** A message for the account's owner, shown on their next visit until they dismiss it. */
const BillingNoticeSchema = defineEntity({
  name: 'BillingNotice',
  tableName: 'billing_notices',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    kind: p.enum(billingNoticeKinds),
    /** The plan's name, for the text. */
    planName: p.string().length(64).default(''),
    /** Rooms stopped because of it. */
    roomsStopped: p.integer().default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
    readAt: p.datetime().nullable(),
  },
  indexes: [{ properties: ['user', 'createdAt'] }],
});

export class BillingNotice extends BillingNoticeSchema.class {}
BillingNoticeSchema.setClass(BillingNotice);
