import { randomUUID } from 'node:crypto';
import { defineEntity, p } from '@mikro-orm/core';
import { User } from './user.entity';

export const balanceEntryKinds = ['recharge', 'purchase', 'refund', 'adjustment'] as const;
export type BalanceEntryKind = (typeof balanceEntryKinds)[number];

/**
 * One line of the append-only balance ledger: a user's balance is the sum of their entries.
 * `externalKey` (e.g. a payment's out_trade_no) is unique, so crediting the same payment twice fails.
 */
const BalanceEntrySchema = defineEntity({
  name: 'BalanceEntry',
  tableName: 'balance_entries',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    /** Integer cents; negative for purchases. A bigint column read back as a JS number. */
    amountCents: p.bigint('number'),
    kind: p.enum(balanceEntryKinds),
    externalKey: p.string().nullable().unique(),
    note: p.string().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  // Balances and statements are read per user, newest first.
  indexes: [{ properties: ['user', 'createdAt'] }],
});

export class BalanceEntry extends BalanceEntrySchema.class {}
BalanceEntrySchema.setClass(BalanceEntry);
