// Bills across all users: the list, asking the provider again (refresh), and refunds. A refund is a ledger entry
// under `refund:<out_trade_no>`, whose unique key makes a second refund of the same bill impossible even when two
// administrators click at once; the money itself goes back through the provider's own dashboard.
import type { EntityManager } from '@mikro-orm/postgresql';
import { Payment, type PaymentStatus } from '@rooms/db';
import { AppError } from '../../errors';
import type { PaymentGateway } from '../../services/payments';
import {
  appendEntry,
  balanceCents,
  formatDollars,
  lockAccount,
  paymentView,
  refreshPayment,
} from '../billing';
import { escapeLike, recordAudit, type TActor } from './audit';
import { keysetPage, keysetWhere, type TKeyset } from './keyset';

export function adminPaymentView(payment: Payment) {
  return {
    ...paymentView(payment),
    refundedAt: payment.refundedAt ?? null,
    user: { id: payment.user.id, email: payment.user.email },
  };
}

export async function listPayments(
  em: EntityManager,
  filter: TKeyset & { status?: PaymentStatus; query?: string },
) {
  const where: Record<string, unknown>[] = [];
  if (filter.status) where.push({ status: filter.status });
  if (filter.query) {
    const pattern = `%${escapeLike(filter.query)}%`;
    where.push({ $or: [{ outTradeNo: { $ilike: pattern } }, { user: { email: { $ilike: pattern } } }] });
  }
  const after = keysetWhere(filter.cursor, 'createdAt');
  if (after) where.push(after);
  const rows = await em.find(Payment, where.length ? { $and: where } : {}, {
    populate: ['user'],
    orderBy: { createdAt: 'desc', id: 'desc' },
    limit: filter.limit + 1,
  });
  const page = keysetPage(rows, filter.limit, (row) => row.createdAt);
  return { items: page.items.map(adminPaymentView), nextCursor: page.nextCursor };
}

async function findPayment(em: EntityManager, paymentId: string): Promise<Payment> {
  const payment = await em.findOne(Payment, paymentId, { populate: ['user'] });
  if (!payment) throw new AppError('PAYMENT_NOT_FOUND');
  return payment;
}

export async function refreshPaymentAsAdmin(
  deps: { em: EntityManager; actor: TActor; now: Date; payments: PaymentGateway },
  paymentId: string,
) {
  const payment = await findPayment(deps.em, paymentId);
  const before = payment.status;
  const fresh = await refreshPayment(deps.em, deps.payments, payment, deps.now);
  recordAudit(deps.em, deps.actor, {
    action: 'payment.refresh',
    targetType: 'payment',
    targetId: payment.id,
    targetLabel: payment.outTradeNo,
    before: { status: before },
    after: { status: fresh.status },
  });
  await deps.em.flush();
  return adminPaymentView(await findPayment(deps.em, paymentId));
}

export async function refundPayment(
  deps: { em: EntityManager; actor: TActor; now: Date },
  input: { paymentId: string; reason: string },
) {
  const payment = await findPayment(deps.em, input.paymentId);
  await deps.em.transactional(async (tx) => {
    await lockAccount(tx, payment.user.id);
    const bill = await tx.findOneOrFail(Payment, payment.id, { refresh: true });
    if (bill.status !== 'paid') throw new AppError('REFUND_NOT_PAID');
    if (bill.refundedAt) throw new AppError('REFUND_DONE');
    const balance = await balanceCents(tx, payment.user.id);
    if (balance < bill.amountCents) {
      throw new AppError('REFUND_EXCEEDS_BALANCE', {
        args: [formatDollars(balance), formatDollars(bill.amountCents)],
      });
    }
    const written = await appendEntry(tx, {
      userId: payment.user.id,
      amountCents: -bill.amountCents,
      kind: 'refund',
      externalKey: `refund:${bill.outTradeNo}`,
      note: input.reason,
    });
    if (!written) throw new AppError('REFUND_DONE');
    bill.refundedAt = deps.now;
    recordAudit(tx, deps.actor, {
      action: 'payment.refund',
      targetType: 'payment',
      targetId: bill.id,
      targetLabel: bill.outTradeNo,
      before: { balance: formatDollars(balance), refundedAt: null },
      after: { balance: formatDollars(balance - bill.amountCents), refundedAt: deps.now },
      reason: input.reason,
    });
    await tx.flush();
  });
  deps.em.clear();
  return adminPaymentView(await findPayment(deps.em, input.paymentId));
}
