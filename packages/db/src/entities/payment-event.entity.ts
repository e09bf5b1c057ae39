import { randomUUID } from 'node:crypto';
import { defineEntity, p } from '@mikro-orm/core';

export const paymentEventOutcomes = ['credited', 'duplicate', 'refused', 'ignored'] as const;
export type PaymentEventOutcome = (typeof paymentEventOutcomes)[number];

/**
 * Every notification a payment provider sent (webhook, notify), kept: a provider event id is acted on once (the
 * unique key), and refused ones (forged signature, wrong amount, unknown out_trade_no) stay on record with why.
 */
const PaymentEventSchema = defineEntity({
  name: 'PaymentEvent',
  tableName: 'payment_events',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    provider: p.string().length(16),
    /** The provider's id for the event; null when the notification could not be trusted enough to read one. */
    eventId: p.string().length(255).nullable(),
    outTradeNo: p.string().length(64).nullable(),
    outcome: p.enum(paymentEventOutcomes),
    reason: p.string().length(255).default(''),
    receivedAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['provider', 'eventId'] }],
});

export class PaymentEvent extends PaymentEventSchema.class {}
PaymentEventSchema.setClass(PaymentEvent);
