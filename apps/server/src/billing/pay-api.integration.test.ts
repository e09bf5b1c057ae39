// The documented pay calls over REST against the real server: envelope, methods and 401s, the OpenAPI document,
// and a recharge through the sandbox checkout page followed by a plan purchase that makes the account VIP.
import { restRoutes } from '@rooms/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rest } from '../testing/rest-client';
import { createOwner } from '../testing/room-test-users';
import { startTestServer, type TTestServer } from '../testing/test-server';

let server: TTestServer;

beforeAll(async () => {
  server = await startTestServer({ listen: false, env: { BILLING_JOBS: 'off' } });
});
afterAll(async () => {
  await server?.close();
});

const SPEC_PAY_PATHS = [
  'POST /api/pay/recharge',
  'GET /api/pay/getPayList',
  'GET /api/pay/getPayInfo',
  'GET /api/pay/getPayment',
  'GET /api/pay/payPlan',
  'GET /api/pay/getUserPlan',
  'GET /api/pay/getPlanList',
  'GET /api/pay/switchRenew',
  'GET /api/pay/refresh',
];

interface TPayment {
  id: string;
  out_trade_no: string;
  amount: number;
  status: string;
  paymentUrl: string | null;
  transactionNo: string | null;
}

describe('pay paths', () => {
  it('answers every documented pay path with its method, and 401 in the envelope without a token', async () => {
    const table = restRoutes.map((route) => `${route.method} ${route.path}`);
    expect(table).toEqual(expect.arrayContaining(SPEC_PAY_PATHS));
    for (const entry of SPEC_PAY_PATHS) {
      const [method, path] = entry.split(' ') as ['GET' | 'POST', string];
      const reply = await rest(server.app, method, path, { body: method === 'POST' ? {} : undefined });
      expect(reply.status, entry).toBe(401);
      expect(reply.msg, entry).toBe('error');
      expect(reply.data, entry).toBe('Not logged in');
    }
  });

  it('documents every pay path in /api/openapi.json with its parameters and reply', async () => {
    const document = (await server.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<
        string,
        Record<string, { parameters?: { name: string }[]; responses: Record<string, unknown> }>
      >;
    };
    for (const entry of SPEC_PAY_PATHS) {
      const [method, path] = entry.split(' ') as [string, string];
      expect(document.paths[path]?.[method.toLowerCase()], entry).toBeDefined();
    }
    const names = (path: string) => document.paths[path]?.get?.parameters?.map((parameter) => parameter.name);
    expect(names('/api/pay/payPlan')).toEqual(['id']);
    expect(names('/api/pay/switchRenew')).toEqual(['flag']);
    expect(names('/api/pay/refresh')).toEqual(['out_trade_no']);
    expect(names('/api/pay/getPayInfo')).toEqual(['id']);
  });
});

describe('plans, recharge and bills', () => {
  it('lists the plans and shows the free plan held unclaimed, then claimed once', async () => {
    const owner = await createOwner(server.app);
    const plans = await rest<
      { code: string; current: boolean; claimable: boolean; price: number; soldOut: boolean }[]
    >(server.app, 'GET', '/api/pay/getPlanList', { token: owner.token });
    expect(plans.msg).toBe('success');
    expect(plans.data.map((plan) => plan.code)).toEqual(
      expect.arrayContaining(['free', 'pro', 'pro-yearly']),
    );
    expect(plans.data.find((plan) => plan.code === 'free')).toMatchObject({
      current: true,
      claimable: true,
      price: 0,
    });

    const before = await rest<{ claimed: boolean; permanent: boolean; plan: { code: string } }>(
      server.app,
      'GET',
      '/api/pay/getUserPlan',
      { token: owner.token },
    );
    expect(before.data).toMatchObject({ claimed: false, permanent: true, plan: { code: 'free' } });

    expect((await rest(server.app, 'POST', '/api/pay/claimFreePlan', { token: owner.token })).msg).toBe(
      'success',
    );
    const again = await rest(server.app, 'POST', '/api/pay/claimFreePlan', { token: owner.token });
    expect(again).toMatchObject({
      status: 409,
      msg: 'error',
      data: 'The free plan has already been claimed',
    });
    const after = await rest<{ claimed: boolean; remainingTimeQuotaSeconds: number }>(
      server.app,
      'GET',
      '/api/pay/getUserPlan',
      { token: owner.token },
    );
    expect(after.data.claimed).toBe(true);
    expect(after.data.remainingTimeQuotaSeconds).toBeGreaterThan(0);
  });

  it('recharges through the sandbox checkout, then buys Pro with the balance and becomes VIP', async () => {
    const owner = await createOwner(server.app);
    const methods = await rest<{ methods: { method: string }[]; presets: number[] }>(
      server.app,
      'GET',
      '/api/pay/getPayment',
      { token: owner.token },
    );
    expect(methods.data.methods.map((method) => method.method)).toEqual(['sandbox']);

    const refused = await rest(server.app, 'POST', '/api/pay/recharge', {
      token: owner.token,
      body: { method: '' },
    });
    expect(refused).toMatchObject({ status: 400, data: 'Please choose a payment method and an amount' });

    const bill = await rest<TPayment>(server.app, 'POST', '/api/pay/recharge', {
      token: owner.token,
      body: { method: 'sandbox', amount: 12.5 },
    });
    expect(bill.msg).toBe('success');
    expect(bill.data).toMatchObject({ amount: 12.5, status: 'unpaid', transactionNo: null });
    const link = new URL(bill.data.paymentUrl ?? '', 'http://localhost');
    expect(link.searchParams.get('out_trade_no')).toBe(bill.data.out_trade_no);

    // The checkout page, its Pay button, and the way back to the bill.
    const checkout = await server.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(checkout.statusCode).toBe(200);
    expect(checkout.body).toContain(bill.data.out_trade_no);
    expect(checkout.body).toContain('12.50 USD');
    const pay = await server.app.inject({
      method: 'POST',
      url: `${link.pathname}/pay`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `out_trade_no=${bill.data.out_trade_no}`,
    });
    expect(pay.statusCode).toBe(303);
    expect(pay.headers.location).toContain(`/bill?out_trade_no=${bill.data.out_trade_no}`);
    // Paid bills cannot be paid again.
    const replay = await server.app.inject({
      method: 'POST',
      url: `${link.pathname}/pay`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `out_trade_no=${bill.data.out_trade_no}`,
    });
    expect(replay.statusCode).toBe(404);

    const info = await rest<TPayment>(server.app, 'GET', '/api/pay/getPayInfo', {
      token: owner.token,
      query: { id: bill.data.id },
    });
    expect(info.data).toMatchObject({ status: 'paid', paymentUrl: null });
    expect(info.data.transactionNo).toMatch(/^SBX/);
    const list = await rest<{ items: TPayment[]; total: number }>(server.app, 'GET', '/api/pay/getPayList', {
      token: owner.token,
      query: { page: '1', pageSize: '5' },
    });
    expect(list.data.total).toBe(1);
    const refreshed = await rest<TPayment>(server.app, 'GET', '/api/pay/refresh', {
      token: owner.token,
      query: { out_trade_no: bill.data.out_trade_no },
    });
    expect(refreshed.data.status).toBe('paid');

    const userinfo = await rest<{ balance: number; level: number }>(server.app, 'GET', '/api/user/userinfo', {
      token: owner.token,
    });
    expect(userinfo.data).toMatchObject({ balance: 12.5, level: 1 });

    const plans = await rest<{ id: string; code: string; price: number }[]>(
      server.app,
      'GET',
      '/api/pay/getPlanList',
      {
        token: owner.token,
      },
    );
    const pro = plans.data.find((plan) => plan.code === 'pro');
    const yearly = plans.data.find((plan) => plan.code === 'pro-yearly');
    const short = await rest(server.app, 'GET', '/api/pay/payPlan', {
      token: owner.token,
      query: { id: yearly?.id ?? '' },
    });
    expect(short.status).toBe(402);
    expect(short.data).toBe(
      'Insufficient balance: the plan costs 99.00 USD and your balance is 12.50 USD; please recharge first',
    );
    const bought = await rest<{ balance: number; level: number }>(server.app, 'GET', '/api/pay/payPlan', {
      token: owner.token,
      query: { id: pro?.id ?? '' },
    });
    expect(bought.data).toMatchObject({ balance: 12.5 - (pro?.price ?? 0), level: 2 });
    const vip = await rest<{ level: number }>(server.app, 'GET', '/api/user/userinfo', {
      token: owner.token,
    });
    expect(vip.data.level).toBe(2);

    const renew = await rest<{ autoRenew: boolean }>(server.app, 'GET', '/api/pay/switchRenew', {
      token: owner.token,
      query: { flag: 'true' },
    });
    expect(renew.data.autoRenew).toBe(true);
    const held = await rest<{ autoRenew: boolean; plan: { code: string }; permanent: boolean }>(
      server.app,
      'GET',
      '/api/pay/getUserPlan',
      { token: owner.token },
    );
    expect(held.data).toMatchObject({ autoRenew: true, permanent: false, plan: { code: 'pro' } });
  });

  it('keeps each person’s bills to themselves', async () => {
    const [payer, stranger] = [await createOwner(server.app), await createOwner(server.app)];
    const bill = await rest<TPayment>(server.app, 'POST', '/api/pay/recharge', {
      token: payer.token,
      body: { method: 'sandbox', amount: 5 },
    });
    const peek = await rest(server.app, 'GET', '/api/pay/getPayInfo', {
      token: stranger.token,
      query: { id: bill.data.id },
    });
    expect(peek).toMatchObject({ status: 404, data: 'The bill does not exist' });
    const refresh = await rest(server.app, 'GET', '/api/pay/refresh', {
      token: stranger.token,
      query: { out_trade_no: bill.data.out_trade_no },
    });
    expect(refresh.status).toBe(404);
  });
});
