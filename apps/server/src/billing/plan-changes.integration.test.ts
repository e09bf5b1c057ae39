// Changing what one holds, over REST against the real server and database: auto-renew switched on with too little
// balance says what is missing, switching plans credits the unused part of the plan held (and the quote shows it
// first), and a purchase never lowers a level an administrator set.
import { billing } from '@rooms/api';
import { BalanceEntry, Subscription } from '@rooms/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../testing/admin-accounts';
import { rest } from '../testing/rest-client';
import { createOwner, type TTestOwner } from '../testing/room-test-users';
import { startTestServer, type TTestServer } from '../testing/test-server';

const DAY_MS = 86_400_000;
let server: TTestServer;
let plans: Map<string, { id: string; price: number; level: number }>;

beforeAll(async () => {
  server = await startTestServer({ listen: false, env: { BILLING_JOBS: 'off' } });
  const owner = await createOwner(server.app);
  const list = await rest<{ id: string; code: string; price: number; level: number }[]>(
    server.app,
    'GET',
    '/api/pay/getPlanList',
    { token: owner.token },
  );
  plans = new Map(list.data.map((plan) => [plan.code, plan]));
});
afterAll(async () => {
  await server?.close();
});

function planId(code: string): string {
  const plan = plans.get(code);
  if (!plan) throw new Error(`no plan ${code}`);
  return plan.id;
}

/** An owner with this many cents on the balance (a credit written to the ledger, as an adjustment would). */
async function ownerWith(cents: number): Promise<TTestOwner> {
  const owner = await createOwner(server.app);
  if (cents > 0) {
    await billing.appendEntry(server.app.orm.em.fork(), {
      userId: owner.userId,
      amountCents: cents,
      kind: 'adjustment',
      externalKey: `test-seed:${owner.userId}`,
    });
  }
  return owner;
}

async function buy(owner: TTestOwner, code: string) {
  return rest<{ balance: number; credit: number; level: number; renewed: boolean }>(
    server.app,
    'GET',
    '/api/pay/payPlan',
    { token: owner.token, query: { id: planId(code) } },
  );
}

async function userinfo(owner: TTestOwner) {
  return (
    await rest<{ balance: number; level: number }>(server.app, 'GET', '/api/user/userinfo', {
      token: owner.token,
    })
  ).data;
}

describe('auto-renew', () => {
  it('switched on with a balance below the next renewal says how much is missing, and when', async () => {
    const owner = await ownerWith(999 + 1);
    expect((await buy(owner, 'pro')).msg).toBe('success');
    expect((await userinfo(owner)).balance).toBe(0.01);

    const on = await rest<{
      autoRenew: boolean;
      expiresAt: string;
      renewalPrice: number;
      balance: number;
      missing: number;
      warning: string | null;
    }>(server.app, 'GET', '/api/pay/switchRenew', { token: owner.token, query: { flag: 'true' } });
    expect(on.msg).toBe('success');
    expect(on.data).toMatchObject({ autoRenew: true, renewalPrice: 9.99, balance: 0.01, missing: 9.98 });
    expect(on.data.warning).toBe(
      `Your balance (0.01 USD) does not cover the next renewal (9.99 USD) on ${on.data.expiresAt}: recharge 9.98 USD more by then, or the plan will lapse instead of renewing`,
    );

    // Covered: no warning. Off: nothing is missing.
    await billing.appendEntry(server.app.orm.em.fork(), {
      userId: owner.userId,
      amountCents: 998,
      kind: 'adjustment',
      externalKey: `test-top-up:${owner.userId}`,
    });
    const covered = await rest<{ missing: number; warning: string | null }>(
      server.app,
      'GET',
      '/api/pay/switchRenew',
      { token: owner.token, query: { flag: 'true' } },
    );
    expect(covered.data).toMatchObject({ missing: 0, warning: null });
  });
});

describe('switching plans', () => {
  /** Holds Pro monthly bought 10½ days ago: 19½ of its 30 days left, 999 × 19.5 / 30 = 649.35 cents unused. */
  async function proBoughtEarlier(extraCents: number): Promise<TTestOwner> {
    const owner = await ownerWith(999 + extraCents);
    expect((await buy(owner, 'pro')).msg).toBe('success');
    const em = server.app.orm.em.fork();
    const held = await em.findOneOrFail(Subscription, { user: owner.userId, closedAt: null });
    held.startsAt = new Date(Date.now() - 10.5 * DAY_MS);
    held.expiresAt = new Date(held.startsAt.getTime() + 30 * DAY_MS);
    await em.flush();
    return owner;
  }

  it('monthly → yearly credits the unused part of the month, quoted before and written once', async () => {
    const owner = await proBoughtEarlier(9900 - 649);

    const quote = await rest<{
      renews: boolean;
      price: number;
      credit: number;
      net: number;
      balance: number;
      balanceAfter: number;
      missing: number;
    }>(server.app, 'GET', '/api/pay/quotePlan', { token: owner.token, query: { id: planId('pro-yearly') } });
    expect(quote.msg).toBe('success');
    expect(quote.data).toEqual({
      plan: expect.objectContaining({ code: 'pro-yearly' }),
      renews: false,
      price: 99,
      credit: 6.49,
      net: 92.51,
      balance: 92.51,
      balanceAfter: 0,
      missing: 0,
    });

    // Without the credit this balance (92.51) would be refused for a 99.00 plan.
    const bought = await buy(owner, 'pro-yearly');
    expect(bought.msg, String(bought.data)).toBe('success');
    expect(bought.data).toMatchObject({ credit: 6.49, balance: 0, renewed: false });
    const credits = await server.app.orm.em
      .fork()
      .find(BalanceEntry, { user: owner.userId, externalKey: { $like: 'proration:%' } });
    expect(credits.map((entry) => [entry.kind, entry.amountCents])).toEqual([['refund', 649]]);
  });

  it('says how much is missing after the credit when the balance is still short', async () => {
    const owner = await proBoughtEarlier(100);
    const quote = await rest<{ credit: number; missing: number }>(server.app, 'GET', '/api/pay/quotePlan', {
      token: owner.token,
      query: { id: planId('pro-yearly') },
    });
    expect(quote.data).toMatchObject({ credit: 6.49, missing: 91.51 });
    const refused = await buy(owner, 'pro-yearly');
    expect(refused).toMatchObject({
      status: 402,
      data: 'Insufficient balance: the plan costs 99.00 USD less 6.49 USD for the unused part of your current plan, and your balance is 1.00 USD; please recharge first',
    });
    expect((await userinfo(owner)).balance).toBe(1);
  });

  it('renewing the plan held credits nothing: its period is extended', async () => {
    const owner = await proBoughtEarlier(999);
    const quote = await rest<{ renews: boolean; credit: number; net: number }>(
      server.app,
      'GET',
      '/api/pay/quotePlan',
      { token: owner.token, query: { id: planId('pro') } },
    );
    expect(quote.data).toMatchObject({ renews: true, credit: 0, net: 9.99 });
    expect((await buy(owner, 'pro')).data).toMatchObject({ renewed: true, credit: 0, balance: 0 });
  });

  it('answers a quote for a plan that does not exist, or the free plan, with a reason', async () => {
    const owner = await ownerWith(0);
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      expect(
        await rest(server.app, 'GET', '/api/pay/quotePlan', { token: owner.token, query: { id } }),
      ).toMatchObject({ status: 404, data: 'This plan does not exist or is no longer offered' });
    }
    expect(
      await rest(server.app, 'GET', '/api/pay/quotePlan', {
        token: owner.token,
        query: { id: planId('free') },
      }),
    ).toMatchObject({ status: 400, data: 'The free plan is claimed, not bought' });
  });
});

describe('levels', () => {
  it('a plan bought, renewed or lapsed never lowers the level an administrator set; a higher plan raises it', async () => {
    const admin = await createAdmin(server.app);
    const owner = await ownerWith(999 * 3);
    const setLevel = async (level: number) => {
      const reply = await rest(server.app, 'POST', '/api/admin/users/setLevel', {
        token: admin.token,
        body: { userId: owner.userId, level, reason: 'Partner account' },
      });
      expect(reply.msg, JSON.stringify(reply)).toBe('success');
    };
    await setLevel(3);

    expect((await buy(owner, 'pro')).data.level).toBe(3);
    expect((await userinfo(owner)).level).toBe(3);
    // The period ends without renewal: the account falls back to Free, still at the administrator's level.
    const em = server.app.orm.em.fork();
    const held = await em.findOneOrFail(Subscription, { user: owner.userId, closedAt: null });
    held.startsAt = new Date(Date.now() - 31 * DAY_MS);
    held.expiresAt = new Date(Date.now() - DAY_MS);
    await em.flush();
    expect((await billing.settleExpiry(server.app.orm.em.fork(), held.id, new Date()))?.kind).toBe('lapsed');
    expect((await userinfo(owner)).level).toBe(3);

    // An administrator's 1 is no floor above the plan: Pro's level 2 shows.
    await setLevel(1);
    expect((await buy(owner, 'pro')).data.level).toBe(plans.get('pro')?.level);
  });
});
