// Recharge bills: created unpaid with the provider's payment link, settled once (provider notification or a
// refresh that finds them paid) with the credit to the ledger in the same transaction, expired when unpaid too
// long. Every notification is recorded with its outcome, refused ones with their reason.
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Payment, type PaymentEventOutcome, type PaymentStatus } from '@rooms/db';
import { AppError } from '../../errors';
import { isUuid } from '../../schemas/common';
import type {
  PaymentGateway,
  PaymentProvider,
  TPaymentMethod,
  TProviderStatus,
} from '../../services/payments';
import { appendEntry, lockAccount } from './ledger';
import { toDollars } from './money';

/** The recharge form names no bounds, so these: one dollar to ten thousand, in whole cents. */
export const RECHARGE_LIMITS = { minCents: 100, maxCents: 1_000_000 } as const;
export const RECHARGE_PRESETS = [5, 10, 20, 50, 100] as const;

/** 'R' + UTC time to the second + 10 random digits: sortable, unique, short enough for every provider (≤ 64). */
export function newOutTradeNo(now: Date): string {
  const stamp = now.toISOString().replace(/\D/g, '').slice(0, 14);
  const random = BigInt(`0x${randomBytes(8).toString('hex')}`)
    .toString()
    .padStart(10, '0')
    .slice(-10);
  return `R${stamp}${random}`;
}

export interface TPaymentView {
  id: string;
  out_trade_no: string;
  /** Dollars. */
  amount: number;
  currency: string;
  method: string;
  status: PaymentStatus;
  createdAt: Date;
  paidAt: Date | null;
  expiresAt: Date;
  paymentUrl: string | null;
  transactionNo: string | null;
}

/**
 * The bill as clients see it. An unpaid bill past its time reads expired at once, before the expiry job stores it
 * (and its link is withheld like any bill that can no longer be paid).
 */
export function paymentView(payment: Payment, now: Date = new Date()): TPaymentView {
  const status: PaymentStatus =
    payment.status === 'unpaid' && payment.expiresAt <= now ? 'expired' : payment.status;
  return {
    id: payment.id,
    out_trade_no: payment.outTradeNo,
    amount: toDollars(payment.amountCents),
    currency: payment.currency,
    method: payment.method,
    status,
    createdAt: payment.createdAt,
    paidAt: payment.paidAt ?? null,
    expiresAt: payment.expiresAt,
    paymentUrl: status === 'unpaid' ? (payment.paymentUrl ?? null) : null,
    transactionNo: payment.transactionNo ?? null,
  };
}

export function providerOf(gateway: PaymentGateway, method: string): PaymentProvider {
  const provider = gateway.providers.find((candidate) => candidate.method === method);
  if (!provider) throw new AppError('PAYMENT_METHOD_UNAVAILABLE');
  return provider;
}

export interface TRechargeRequest {
  userId: string;
  method: TPaymentMethod | string;
  amountCents: number;
  /** Where the provider returns the payer (the bill screen), absolute; `{out_trade_no}` is filled in. */
  returnUrl: string;
  /** This site's address as the payer reached it, no trailing slash. */
  siteUrl: string;
  subject: string;
}

/** Creates the bill, then the provider's order; a provider that fails leaves no bill behind. */
export async function createRecharge(
  em: EntityManager,
  gateway: PaymentGateway,
  request: TRechargeRequest,
  now: Date,
): Promise<Payment> {
  const provider = providerOf(gateway, request.method);
  if (
    !Number.isInteger(request.amountCents) ||
    request.amountCents < RECHARGE_LIMITS.minCents ||
    request.amountCents > RECHARGE_LIMITS.maxCents
  ) {
    throw new AppError('RECHARGE_AMOUNT_RANGE', {
      args: [toDollars(RECHARGE_LIMITS.minCents), toDollars(RECHARGE_LIMITS.maxCents)],
    });
  }
  const outTradeNo = newOutTradeNo(now);
  const expiresAt = new Date(now.getTime() + gateway.paymentTtlMs);
  const checkout = await provider.createCheckout({
    outTradeNo,
    amountCents: request.amountCents,
    currency: provider.currency,
    subject: request.subject,
    returnUrl: request.returnUrl.replace('{out_trade_no}', outTradeNo),
    siteUrl: request.siteUrl,
    expiresAt,
  });
  const payment = em.create(Payment, {
    user: request.userId,
    outTradeNo,
    amountCents: request.amountCents,
    currency: provider.currency,
    method: provider.method,
    status: 'unpaid',
    paymentUrl: checkout.paymentUrl,
    providerRef: checkout.providerRef,
    transactionNo: null,
    paidAt: null,
    createdAt: now,
    expiresAt,
  });
  await em.flush();
  return payment;
}

/** What a provider told us about a payment, after its signature (or our own query) vouched for it. */
export interface TSettlement {
  provider: TPaymentMethod;
  /** The provider's id for this notification; null for a refresh, whose answer is not an event. */
  eventId: string | null;
  outTradeNo: string;
  amountCents: number;
  currency: string;
  transactionNo: string;
}

export interface TSettleResult {
  outcome: PaymentEventOutcome;
  reason: string;
  payment: Payment | null;
}

/** Records a notification that could not be trusted or used, with why (forged signature, unknown order, …). */
export async function recordRefusal(
  em: EntityManager,
  provider: string,
  details: { outTradeNo?: string | null; reason: string },
): Promise<void> {
  await em.execute(
    `insert into payment_events (id, provider, event_id, out_trade_no, outcome, reason, received_at)
     values (gen_random_uuid(), ?, ?, ?, 'refused', ?, now()) on conflict do nothing`,
    [provider, null, details.outTradeNo?.slice(0, 64) ?? null, details.reason.slice(0, 255)],
  );
}

/**
 * Marks the payment paid and credits its amount, once: the event id is unique per provider, the payment row is
 * locked, and the ledger's external key `recharge:<out_trade_no>` cannot be written twice. A notification for
 * an unknown order, another provider's order, or a different amount or currency is refused and recorded.
 */
export async function settlePayment(
  em: EntityManager,
  settlement: TSettlement,
  now: Date,
): Promise<TSettleResult> {
  const result = await em.transactional(async (tx): Promise<TSettleResult> => {
    if (settlement.eventId) {
      // Claims the event: a replay (even one arriving at the same moment) waits here, then finds it taken.
      const claimed = await tx.execute<{ id: string }[]>(
        `insert into payment_events (id, provider, event_id, out_trade_no, outcome, reason, received_at)
         values (gen_random_uuid(), ?, ?, ?, 'credited', '', now())
         on conflict (provider, event_id) do nothing returning id`,
        [settlement.provider, settlement.eventId, settlement.outTradeNo.slice(0, 64)],
      );
      if (claimed.length === 0)
        return { outcome: 'duplicate', reason: 'event already handled', payment: null };
    }
    const outcome = await decideSettlement(tx, settlement, now);
    if (settlement.eventId && outcome.outcome !== 'credited') {
      await tx.execute(
        'update payment_events set outcome = ?, reason = ? where provider = ? and event_id = ?',
        [outcome.outcome, outcome.reason.slice(0, 255), settlement.provider, settlement.eventId],
      );
    }
    return outcome;
  });
  if (result.outcome === 'refused' && !settlement.eventId) {
    await recordRefusal(em, settlement.provider, {
      outTradeNo: settlement.outTradeNo,
      reason: result.reason,
    });
  }
  return result;
}

async function decideSettlement(
  tx: EntityManager,
  settlement: TSettlement,
  now: Date,
): Promise<TSettleResult> {
  const [row] = await tx.execute<{ id: string }[]>(
    'select id from payments where out_trade_no = ? for update',
    [settlement.outTradeNo],
  );
  const payment = row ? await tx.findOne(Payment, row.id, { refresh: true }) : null;
  const refuse = (reason: string): TSettleResult => ({ outcome: 'refused', reason, payment });
  if (!payment) return refuse('unknown out_trade_no');
  if (payment.method !== settlement.provider) return refuse(`order belongs to ${payment.method}`);
  if (
    payment.amountCents !== settlement.amountCents ||
    payment.currency !== settlement.currency.toLowerCase()
  ) {
    return refuse(
      `amount ${settlement.amountCents} ${settlement.currency} does not match ${payment.amountCents} ${payment.currency}`,
    );
  }
  if (payment.status === 'paid') return { outcome: 'duplicate', reason: 'already paid', payment };
  // Money that arrives after the bill expired is still the payer's: it is credited, and the bill says paid.
  await lockAccount(tx, payment.user.id);
  await appendEntry(tx, {
    userId: payment.user.id,
    amountCents: payment.amountCents,
    kind: 'recharge',
    externalKey: `recharge:${payment.outTradeNo}`,
    note: `${payment.method} ${settlement.transactionNo}`.slice(0, 255),
  });
  payment.status = 'paid';
  payment.paidAt = now;
  payment.transactionNo = settlement.transactionNo.slice(0, 128);
  await tx.flush();
  return { outcome: 'credited', reason: '', payment };
}

/**
 * Asks the provider about a bill that is not paid yet and stores what it says (a bill's refresh). When the provider
 * cannot tell (unreachable, an order it does not know), the bill says 'unknown' rather than 'unpaid': it may have
 * been paid. A later answer that can tell moves it on.
 */
export async function refreshPayment(
  em: EntityManager,
  gateway: PaymentGateway,
  payment: Payment,
  now: Date,
): Promise<Payment> {
  if (payment.status === 'paid') return payment;
  const provider = gateway.providers.find((candidate) => candidate.method === payment.method);
  const answer: TProviderStatus = provider
    ? await provider.query({ outTradeNo: payment.outTradeNo, providerRef: payment.providerRef ?? null })
    : { status: 'unknown' };
  const open = { id: payment.id, status: { $in: ['unpaid', 'unknown'] as PaymentStatus[] } };
  if (answer.status === 'paid' && provider) {
    await settlePayment(
      em,
      {
        provider: provider.method,
        eventId: null,
        outTradeNo: payment.outTradeNo,
        amountCents: answer.amountCents,
        currency: answer.currency,
        transactionNo: answer.transactionNo,
      },
      now,
    );
  } else if (answer.status === 'expired' || (answer.status === 'unpaid' && payment.expiresAt <= now)) {
    await em.nativeUpdate(Payment, open, { status: 'expired' });
  } else if (answer.status === 'unpaid') {
    await em.nativeUpdate(Payment, { id: payment.id, status: 'unknown' }, { status: 'unpaid' });
  } else if (answer.status === 'unknown') {
    await em.nativeUpdate(Payment, { id: payment.id, status: 'unpaid' }, { status: 'unknown' });
  }
  return em.findOneOrFail(Payment, payment.id, { refresh: true });
}

/**
 * The payer gave up on the provider's page (the sandbox's Cancel): the bill is closed at once and can no longer be
 * paid. The spec's statuses have no 'cancelled': a closed bill reads expired, as of now. Returns false when the
 * bill was not open (paid already, expired, or not this method's).
 */
export async function closeUnpaidBill(
  em: EntityManager,
  bill: { outTradeNo: string; method: TPaymentMethod },
  now: Date,
): Promise<boolean> {
  const closed = await em.nativeUpdate(
    Payment,
    { outTradeNo: bill.outTradeNo, method: bill.method, status: 'unpaid' },
    { status: 'expired', expiresAt: now },
  );
  return closed > 0;
}

/** Unpaid bills past their time become expired; returns how many. */
export async function expireUnpaidPayments(em: EntityManager, now: Date): Promise<number> {
  return em.nativeUpdate(Payment, { status: 'unpaid', expiresAt: { $lte: now } }, { status: 'expired' });
}

/** The user's bills, newest first, one page (counted from 1) at a time, with how many there are in all. */
export async function billsOf(
  em: EntityManager,
  userId: string,
  page: { page: number; pageSize: number },
): Promise<{ items: Payment[]; total: number }> {
  const [items, total] = await em.findAndCount(
    Payment,
    { user: userId },
    {
      orderBy: { createdAt: 'desc', id: 'asc' },
      limit: page.pageSize,
      offset: (page.page - 1) * page.pageSize,
    },
  );
  return { items, total };
}

/** One of the user's bills by id or out_trade_no; another user's answers PAYMENT_NOT_FOUND like a missing one. */
export async function ownBill(
  em: EntityManager,
  userId: string,
  where: { id?: string; outTradeNo?: string },
): Promise<Payment> {
  if (where.id !== undefined && !isUuid(where.id)) throw new AppError('PAYMENT_NOT_FOUND');
  const payment = await em.findOne(Payment, { ...where, user: userId });
  if (!payment) throw new AppError('PAYMENT_NOT_FOUND');
  return payment;
}
