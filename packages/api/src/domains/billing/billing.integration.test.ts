// The billing rules against real PostgreSQL: concurrent purchases and inventory, the ledger's idempotent credits,
// refused settlements on record, bill expiry and renewal at the end of a period.
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { BalanceEntry, Payment, PaymentEvent, Plan, Subscription, User } from '@rooms/db';
import { createTestDatabase, type TestDatabase } from '@rooms/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../errors';
import { appendEntry, balanceCents } from './ledger';
import { expireUnpaidPayments, settlePayment } from './payments';
import {
  claimFreePlan,
  currentSubscription,
  purchasePlan,
  quotePurchase,
  settleExpiry,
  switchRenew,
} from './subscriptions';

let db: TestDatabase;
const em = () => db.orm.em.fork() as unknown as EntityManager;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

async function newUser(balance = 0): Promise<string> {
  const fork = em();
  const suffix = randomBytes(5).toString('hex');
  const user = fork.create(User, {
    username: `buyer-${suffix}`,
    email: `buyer-${suffix}@example.test`,
    passwordHash: 'unused',
  });
  await fork.flush();
  if (balance > 0) {
    await appendEntry(fork, {
      userId: user.id,
      amountCents: balance,
      kind: 'adjustment',
      externalKey: `seed:${suffix}`,
    });
  }
  return user.id;
}

async function plan(code: string): Promise<Plan> {
  return em().findOneOrFail(Plan, { code });
}

async function newPlan(overrides: Partial<Plan> = {}): Promise<Plan> {
  const fork = em();
  const base = await fork.findOneOrFail(Plan, { code: 'pro' });
  const copy = fork.create(Plan, {
    ...base,
    id: undefined,
    code: `p-${randomBytes(4).toString('hex')}`,
    regionCodes: [...base.regionCodes],
    ...overrides,
  } as never);
  await fork.flush();
  return copy as Plan;
}

function codeOf(error: unknown): string | undefined {
  return error instanceof AppError ? error.appCode : undefined;
}

describe('buying plans', () => {
  it('lets 20 concurrent purchases with a balance for 3 succeed exactly 3 times, never overdrawing', async () => {
    const pro = await plan('pro');
    const userId = await newUser(pro.priceCents * 3 + 500);
    const now = new Date();
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => purchasePlan(em(), userId, pro.id, now)),
    );
    const succeeded = results.filter((result) => result.status === 'fulfilled');
    expect(succeeded).toHaveLength(3);
    for (const result of results) {
      if (result.status === 'rejected') expect(codeOf(result.reason)).toBe('INSUFFICIENT_BALANCE');
    }
    expect(await balanceCents(em(), userId)).toBe(500);
    // The running sum of the ledger never dips below zero, in the order the entries were written.
    const entries = await em().find(
      BalanceEntry,
      { user: userId },
      { orderBy: { createdAt: 'asc', id: 'asc' } },
    );
    let running = 0;
    for (const entry of entries) {
      running += entry.amountCents;
      expect(running).toBeGreaterThanOrEqual(0);
    }
    const current = await currentSubscription(em(), userId, new Date());
    expect(current?.plan.code).toBe('pro');
    // One period bought, two renewals on top of it.
    expect(current?.expiresAt?.getTime()).toBe(now.getTime() + 3 * 30 * 86_400_000);
    expect((await em().findOneOrFail(User, userId)).level).toBe(2);
  });

  it('sells the last copy of a plan to one of two buyers at once', async () => {
    const scarce = await newPlan({ inventory: 1, priceCents: 500 });
    const [first, second] = [await newUser(1000), await newUser(1000)];
    const results = await Promise.allSettled([
      purchasePlan(em(), first, scarce.id, new Date()),
      purchasePlan(em(), second, scarce.id, new Date()),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
    expect(codeOf(refused.reason)).toBe('PLAN_SOLD_OUT');
    expect((await em().findOneOrFail(Plan, scarce.id)).inventory).toBe(0);
    // The loser paid nothing.
    const balances = [await balanceCents(em(), first), await balanceCents(em(), second)].sort(
      (a, b) => a - b,
    );
    expect(balances).toEqual([500, 1000]);
  });

  it('refuses a purchase the balance does not cover, and ends the previous subscription at once on a purchase', async () => {
    const pro = await plan('pro');
    const yearly = await plan('pro-yearly');
    const start = new Date();
    const switched = new Date(start.getTime() + 1000);
    // Pro's month, one second of it used, is worth 998 cents back when the year replaces it.
    const credit = Math.floor((pro.priceCents * (30 * 86_400_000 - 1000)) / (30 * 86_400_000));
    expect(credit).toBe(998);
    const userId = await newUser(pro.priceCents + yearly.priceCents - credit);
    await claimFreePlan(em(), userId, start);
    await expect(claimFreePlan(em(), userId, start)).rejects.toMatchObject({
      appCode: 'FREE_PLAN_CLAIMED',
    });
    await purchasePlan(em(), userId, pro.id, start);
    const bought = await purchasePlan(em(), userId, yearly.id, switched);
    expect(bought).toMatchObject({ creditCents: credit, balanceCents: 0, renewed: false });
    const subscriptions = await em().find(
      Subscription,
      { user: userId },
      { populate: ['plan'], orderBy: { startsAt: 'asc' } },
    );
    expect(subscriptions.map((subscription) => subscription.plan.code)).toEqual([
      'free',
      'pro',
      'pro-yearly',
    ]);
    expect(subscriptions[1]?.expiresAt?.getTime()).toBe(switched.getTime());
    expect(await balanceCents(em(), userId)).toBe(0);
    const pricier = await newPlan({ priceCents: yearly.priceCents * 2 });
    await expect(purchasePlan(em(), userId, pricier.id, switched)).rejects.toMatchObject({
      appCode: 'INSUFFICIENT_BALANCE_AFTER_CREDIT',
    });
    const broke = await newUser(pro.priceCents - 1);
    await expect(purchasePlan(em(), broke, pro.id, start)).rejects.toMatchObject({
      appCode: 'INSUFFICIENT_BALANCE',
    });
  });

  it('credits the unused part of a stacked period pro rata when the plan changes, once, and quotes it first', async () => {
    const pro = await plan('pro');
    const yearly = await plan('pro-yearly');
    const start = new Date(Date.now() - 45 * 86_400_000);
    const userId = await newUser(pro.priceCents * 2 + yearly.priceCents);
    // Two months bought (the second extends the first): 60 days for 1998 cents, switched after 45.
    await purchasePlan(em(), userId, pro.id, start);
    const held = await purchasePlan(em(), userId, pro.id, start);
    expect(held.renewed).toBe(true);
    const now = new Date(start.getTime() + 45 * 86_400_000);
    const quote = await quotePurchase(em(), userId, yearly.id, now);
    expect(quote).toMatchObject({
      renews: false,
      priceCents: yearly.priceCents,
      creditCents: 499, // 1998 × 15 / 60 = 499.5, rounded down
      netCents: yearly.priceCents - 499,
      balanceCents: yearly.priceCents,
      balanceAfterCents: 499,
    });
    const bought = await purchasePlan(em(), userId, yearly.id, now);
    expect(bought.creditCents).toBe(499);
    expect(await balanceCents(em(), userId)).toBe(499);
    const refunds = await em().find(BalanceEntry, { user: userId, kind: 'refund' });
    expect(refunds.map((entry) => [entry.externalKey, entry.amountCents])).toEqual([
      [`proration:${held.subscription.id}`, 499],
    ]);
  });
});

async function unpaidBill(userId: string, amountCents: number, method = 'sandbox', expiresInMs = 60_000) {
  const fork = em();
  const payment = fork.create(Payment, {
    user: userId,
    outTradeNo: `T${randomBytes(8).toString('hex')}`,
    amountCents,
    method,
    expiresAt: new Date(Date.now() + expiresInMs),
    paymentUrl: 'http://pay.example/checkout',
    transactionNo: null,
    providerRef: null,
    paidAt: null,
  });
  await fork.flush();
  return payment;
}

describe('settling payments', () => {
  it('credits a notification replayed 100 times once', async () => {
    const userId = await newUser();
    const bill = await unpaidBill(userId, 2500);
    const settle = () =>
      settlePayment(
        em(),
        {
          provider: 'sandbox',
          eventId: `evt-${bill.outTradeNo}`,
          outTradeNo: bill.outTradeNo,
          amountCents: 2500,
          currency: 'usd',
          transactionNo: 'TX1',
        },
        new Date(),
      );
    const outcomes = await Promise.all(Array.from({ length: 100 }, settle));
    expect(outcomes.filter((outcome) => outcome.outcome === 'credited')).toHaveLength(1);
    expect(await balanceCents(em(), userId)).toBe(2500);
    const paid = await em().findOneOrFail(Payment, bill.id);
    expect(paid.status).toBe('paid');
    expect(paid.transactionNo).toBe('TX1');
  });

  it('refuses and records a wrong amount and an unknown out_trade_no', async () => {
    const userId = await newUser();
    const bill = await unpaidBill(userId, 1000);
    const wrong = await settlePayment(
      em(),
      {
        provider: 'sandbox',
        eventId: 'evt-wrong',
        outTradeNo: bill.outTradeNo,
        amountCents: 1,
        currency: 'usd',
        transactionNo: 'X',
      },
      new Date(),
    );
    expect(wrong.outcome).toBe('refused');
    const unknown = await settlePayment(
      em(),
      {
        provider: 'sandbox',
        eventId: null,
        outTradeNo: 'NO-SUCH-ORDER',
        amountCents: 1000,
        currency: 'usd',
        transactionNo: 'X',
      },
      new Date(),
    );
    expect(unknown.outcome).toBe('refused');
    expect(await balanceCents(em(), userId)).toBe(0);
    const recorded = await em().find(PaymentEvent, {
      outTradeNo: { $in: [bill.outTradeNo, 'NO-SUCH-ORDER'] },
    });
    expect(recorded.map((event) => event.outcome)).toEqual(['refused', 'refused']);
    expect(recorded.map((event) => event.reason).join(' ')).toMatch(
      /does not match.*unknown out_trade_no|unknown out_trade_no.*does not match/,
    );
  });

  it('expires unpaid bills past their time and leaves the others', async () => {
    const userId = await newUser();
    const old = await unpaidBill(userId, 1000, 'sandbox', -1000);
    const fresh = await unpaidBill(userId, 1000);
    await expireUnpaidPayments(em(), new Date());
    expect((await em().findOneOrFail(Payment, old.id)).status).toBe('expired');
    expect((await em().findOneOrFail(Payment, fresh.id)).status).toBe('unpaid');
  });
});

describe('renewal at the end of a period', () => {
  async function lapsingPro(balance: number, autoRenew: boolean) {
    const pro = await plan('pro');
    const userId = await newUser(pro.priceCents + balance);
    const start = new Date(Date.now() - 31 * 86_400_000);
    const { subscription } = await purchasePlan(em(), userId, pro.id, start);
    if (autoRenew) await switchRenew(em(), userId, true, start);
    return { userId, subscriptionId: subscription.id, pro };
  }

  it('renews when auto-renew is on and the balance covers the price', async () => {
    const { userId, subscriptionId, pro } = await lapsingPro((await plan('pro')).priceCents, true);
    const outcome = await settleExpiry(em(), subscriptionId, new Date());
    expect(outcome?.kind).toBe('renewed');
    expect((await currentSubscription(em(), userId, new Date()))?.plan.code).toBe('pro');
    expect(await balanceCents(em(), userId)).toBe(0);
    expect((await em().findOneOrFail(User, userId)).level).toBe(pro.level);
    // Settling the same end twice does nothing more.
    expect(await settleExpiry(em(), subscriptionId, new Date())).toBeNull();
  });

  it('falls back to Free when the balance does not cover the renewal', async () => {
    const { userId, subscriptionId } = await lapsingPro(100, true);
    const outcome = await settleExpiry(em(), subscriptionId, new Date());
    expect(outcome?.kind).toBe('lapsed');
    expect(await currentSubscription(em(), userId, new Date())).toBeNull();
    expect(await balanceCents(em(), userId)).toBe(100);
    expect((await em().findOneOrFail(User, userId)).level).toBe(1);
  });
});
