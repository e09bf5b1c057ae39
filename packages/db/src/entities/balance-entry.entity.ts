import { randomUUID } from 'node:crypto';
import { defineEntity, p } from '@mikro-orm/core';
import { User } from './user.entity';

/**
 * Where the database says that a user's ledger changed (the payload is the user's id), sent by a trigger in the
 * writing transaction, so every process hears of every write once it is committed, whoever wrote it.
 */
export const BALANCE_CHANGED_CHANNEL = 'rooms_balance_changed';

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
  triggers: [
    {
      // Balances are kept in the servers' memory between reads; this is how they learn that one changed.
      name: 'balance_changed',
      timing: 'after',
      events: ['insert', 'update', 'delete'],
      forEach: 'row',
      body: `perform pg_notify('${BALANCE_CHANGED_CHANNEL}', coalesce(new.user_id, old.user_id)::text);
  return null`,
    },
  ],
});

export class BalanceEntry extends BalanceEntrySchema.class {}
BalanceEntrySchema.setClass(BalanceEntry);
