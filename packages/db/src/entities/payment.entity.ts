import { randomUUID } from 'node:crypto';
import { defineEntity, p } from '@mikro-orm/core';
import { User } from './user.entity';

/** An unpaid bill shows its payment link; expired ones can no longer be paid; unknown = the provider could not say. */
export const paymentStatuses = ['unpaid', 'paid', 'expired', 'unknown'] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

/**
 * A recharge bill: created unpaid with the provider's payment link, turned paid once by the
 * provider's notification or a refresh, when its amount is credited to the balance ledger under `recharge:<out_trade_no>`.
 */
const PaymentSchema = defineEntity({
  name: 'Payment',
  tableName: 'payments',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    /** Our order number, sent to the provider (Alipay's own name for it). */
    outTradeNo: p.string().length(64).unique(),
    /** Integer cents; dollars on the wire. */
    amountCents: p.integer(),
    currency: p.string().length(3).default('usd'),
    /** The provider that takes the money: sandbox, stripe or alipay. */
    method: p.string().length(16),
    status: p.enum(paymentStatuses).default('unpaid'),
    paymentUrl: p.text().nullable(),
    /** The provider's transaction number once paid. */
    transactionNo: p.string().length(128).nullable(),
    /** The provider's own handle on the order (a Stripe Checkout Session id); null when out_trade_no is enough. */
    providerRef: p.string().length(255).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    paidAt: p.datetime().nullable(),
    /** When an administrator refunded the bill; the refund itself is a ledger entry under `refund:<out_trade_no>`. */
    refundedAt: p.datetime().nullable(),
    /** After this an unpaid bill expires and can no longer be paid. */
    expiresAt: p.datetime(),
  },
  indexes: [{ properties: ['user', 'createdAt'] }, { properties: ['status', 'expiresAt'] }],
  checks: [{ name: 'payments_amount_cents_check', expression: 'amount_cents > 0' }],
});

export class Payment extends PaymentSchema.class {}
PaymentSchema.setClass(Payment);
