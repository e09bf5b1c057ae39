// Stripe and Alipay through their official SDKs against local servers that answer as each provider documents
// (keys and secrets made here): checkout, signed notifications credited once however often they come, forged
// signatures, wrong amounts and unknown orders refused and recorded, and refresh asking the provider.
import { PaymentEvent } from '@rooms/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALIPAY_NOTIFY_PATH } from '../services/payments/alipay-provider';
import { STRIPE_WEBHOOK_PATH } from '../services/payments/stripe-provider';
import { startLocalAlipay, type TLocalAlipay } from '../testing/local-alipay';
import { startLocalStripe, type TLocalStripe } from '../testing/local-stripe';
import { rest } from '../testing/rest-client';
import { createOwner, type TTestOwner } from '../testing/room-test-users';
import { startTestServer, type TTestServer } from '../testing/test-server';

let server: TTestServer;
let stripe: TLocalStripe;
let alipay: TLocalAlipay;

beforeAll(async () => {
  [stripe, alipay] = await Promise.all([startLocalStripe(), startLocalAlipay()]);
  server = await startTestServer({
    env: {
      BILLING_JOBS: 'off',
      PAYMENT_PROVIDERS: 'sandbox,stripe,alipay',
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_URL: stripe.url,
      ALIPAY_APP_ID: alipay.appId,
      ALIPAY_PRIVATE_KEY: alipay.appPrivateKey,
      ALIPAY_PUBLIC_KEY: alipay.alipayPublicKey,
      ALIPAY_GATEWAY: alipay.gateway,
    },
  });
  stripe.webhookUrl = `${server.url}${STRIPE_WEBHOOK_PATH}`;
  alipay.notifyTarget = `${server.url}${ALIPAY_NOTIFY_PATH}`;
});
afterAll(async () => {
  await server?.close();
  await Promise.all([stripe?.close(), alipay?.close()]);
});

interface TPayment {
  id: string;
  out_trade_no: string;
  amount: number;
  status: string;
  paymentUrl: string | null;
  transactionNo: string | null;
}

async function recharge(owner: TTestOwner, method: string, amount: number): Promise<TPayment> {
  const reply = await rest<TPayment>(server.app, 'POST', '/api/pay/recharge', {
    token: owner.token,
    body: { method, amount },
  });
  expect(reply.msg, String(reply.data)).toBe('success');
  return reply.data;
}

async function bill(owner: TTestOwner, id: string): Promise<TPayment> {
  return (
    await rest<TPayment>(server.app, 'GET', '/api/pay/getPayInfo', { token: owner.token, query: { id } })
  ).data;
}

async function balance(owner: TTestOwner): Promise<number> {
  return (await rest<{ balance: number }>(server.app, 'GET', '/api/user/userinfo', { token: owner.token }))
    .data.balance;
}

async function eventsFor(outTradeNo: string) {
  return server.app.orm.em.fork().find(PaymentEvent, { outTradeNo }, { orderBy: { receivedAt: 'asc' } });
}

describe('stripe', () => {
  it('offers the three methods', async () => {
    const owner = await createOwner(server.app);
    const methods = await rest<{ methods: { method: string }[] }>(server.app, 'GET', '/api/pay/getPayment', {
      token: owner.token,
    });
    expect(methods.data.methods.map((method) => method.method)).toEqual(['sandbox', 'stripe', 'alipay']);
  });

  it('pays through a Checkout Session and credits a webhook replayed 100 times once', async () => {
    const owner = await createOwner(server.app);
    const payment = await recharge(owner, 'stripe', 20);
    const session = [...stripe.sessions.values()].find(
      (entry) => entry.metadata.out_trade_no === payment.out_trade_no,
    );
    expect(session).toMatchObject({ amount_total: 2000, currency: 'usd' });
    expect(payment.paymentUrl).toBe(session?.url);

    // The payer goes through the hosted page; Stripe sends the signed webhook, then returns them to the bill.
    const hosted = await fetch(payment.paymentUrl ?? '', { redirect: 'manual' });
    expect(hosted.status).toBe(303);
    expect(hosted.headers.get('location')).toContain(`/bill?out_trade_no=${payment.out_trade_no}`);
    expect(await bill(owner, payment.id)).toMatchObject({ status: 'paid' });
    expect((await bill(owner, payment.id)).transactionNo).toMatch(/^pi_/);
    expect(await balance(owner)).toBe(20);

    // The same event, over and over (Stripe retries; an attacker may replay a captured one within the tolerance).
    const { payload } = stripe.pay(session?.id ?? '');
    const signature = stripe.sign(payload);
    const replies = await Promise.all(Array.from({ length: 100 }, () => stripe.deliver(payload, signature)));
    expect(replies.every((reply) => reply.status === 200)).toBe(true);
    expect(await balance(owner)).toBe(20);
    const events = await eventsFor(payment.out_trade_no);
    expect(events.filter((event) => event.outcome === 'credited')).toHaveLength(1);
  });

  it('refuses and records a forged signature, a stale one, a wrong amount and an unknown order', async () => {
    const owner = await createOwner(server.app);
    const payment = await recharge(owner, 'stripe', 10);
    const session = [...stripe.sessions.values()].find(
      (entry) => entry.metadata.out_trade_no === payment.out_trade_no,
    );
    const { payload } = stripe.pay(session?.id ?? '');

    const forged = await stripe.deliver(payload, stripe.sign(payload, 'whsec_not_the_secret'));
    expect(forged.status).toBe(400);
    const stale = await stripe.deliver(
      payload,
      stripe.sign(payload, undefined, Math.floor(Date.now() / 1000) - 3600),
    );
    expect(stale.status).toBe(400);
    const tampered = payload.replace('"amount_total":1000', '"amount_total":100000');
    const wrongAmount = await stripe.deliver(tampered, stripe.sign(payload));
    expect(wrongAmount.status).toBe(400);

    // A correctly signed event whose amount does not match the bill (a session edited after the fact).
    if (session) session.amount_total = 1;
    const mismatch = stripe.pay(session?.id ?? '');
    expect((await stripe.deliver(mismatch.payload, mismatch.signature)).status).toBe(200);
    // And one for an order this server never made.
    if (session) {
      session.amount_total = 1000;
      session.metadata = { out_trade_no: 'R-NOT-OURS' };
    }
    const stranger = stripe.pay(session?.id ?? '');
    expect((await stripe.deliver(stranger.payload, stranger.signature)).status).toBe(200);

    expect(await bill(owner, payment.id)).toMatchObject({ status: 'unpaid' });
    expect(await balance(owner)).toBe(0);
    const refused = await server.app.orm.em
      .fork()
      .find(PaymentEvent, { provider: 'stripe', outcome: 'refused' }, { orderBy: { receivedAt: 'asc' } });
    const reasons = refused.map((event) => event.reason).join('\n');
    expect(reasons).toMatch(/signature/);
    expect(reasons).toMatch(/does not match/);
    expect(reasons).toMatch(/unknown out_trade_no/);
  });

  it('refresh asks Stripe when the webhook never came', async () => {
    const owner = await createOwner(server.app);
    const payment = await recharge(owner, 'stripe', 7.5);
    const open = await rest<TPayment>(server.app, 'GET', '/api/pay/refresh', {
      token: owner.token,
      query: { out_trade_no: payment.out_trade_no },
    });
    expect(open.data.status).toBe('unpaid');
    const session = [...stripe.sessions.values()].find(
      (entry) => entry.metadata.out_trade_no === payment.out_trade_no,
    );
    stripe.pay(session?.id ?? ''); // paid at Stripe, webhook lost
    const paid = await rest<TPayment>(server.app, 'GET', '/api/pay/refresh', {
      token: owner.token,
      query: { out_trade_no: payment.out_trade_no },
    });
    expect(paid.data.status).toBe('paid');
    expect(await balance(owner)).toBe(7.5);
  });

  it('refresh says unknown while Stripe cannot tell, and unpaid again once it can', async () => {
    const owner = await createOwner(server.app);
    const payment = await recharge(owner, 'stripe', 6);
    const refresh = () =>
      rest<TPayment>(server.app, 'GET', '/api/pay/refresh', {
        token: owner.token,
        query: { out_trade_no: payment.out_trade_no },
      });
    const entry = [...stripe.sessions.entries()].find(
      ([, session]) => session.metadata.out_trade_no === payment.out_trade_no,
    );
    if (!entry) throw new Error('no session at the local Stripe');
    // Stripe no longer answers for the session: it may have been paid, so the bill does not claim otherwise.
    stripe.sessions.delete(entry[0]);
    const unknown = await refresh();
    expect(unknown.data).toMatchObject({ status: 'unknown', paymentUrl: null });
    expect((await bill(owner, payment.id)).status).toBe('unknown');
    stripe.sessions.set(entry[0], entry[1]);
    expect((await refresh()).data).toMatchObject({ status: 'unpaid', paymentUrl: payment.paymentUrl });
  });
});

describe('alipay', () => {
  it('pays through page pay and credits a notify replayed 100 times once', async () => {
    const owner = await createOwner(server.app);
    const payment = await recharge(owner, 'alipay', 12.34);
    const link = new URL(payment.paymentUrl ?? '');
    expect(`${link.origin}${link.pathname}`).toBe(alipay.gateway);
    expect(link.searchParams.get('method')).toBe('alipay.trade.page.pay');

    const page = await fetch(link, { redirect: 'manual' });
    expect(page.status).toBe(302);
    expect(alipay.badSignatures).toBe(0);
    expect(await bill(owner, payment.id)).toMatchObject({ status: 'paid' });
    expect(await balance(owner)).toBe(12.34);

    const trade = alipay.trades.get(payment.out_trade_no);
    if (!trade) throw new Error('no trade at the local Alipay');
    const notify = alipay.notifyFor(trade);
    const replies = await Promise.all(
      Array.from({ length: 100 }, () => alipay.postNotify(`${server.url}${ALIPAY_NOTIFY_PATH}`, notify)),
    );
    for (const reply of replies) expect(await reply.text()).toBe('success');
    // TRADE_FINISHED comes later with its own notify_id: the bill is already paid.
    await alipay.postNotify(
      `${server.url}${ALIPAY_NOTIFY_PATH}`,
      alipay.notifyFor(trade, { trade_status: 'TRADE_FINISHED' }),
    );
    expect(await balance(owner)).toBe(12.34);
    const events = await eventsFor(payment.out_trade_no);
    expect(events.filter((event) => event.outcome === 'credited')).toHaveLength(1);
  });

  it('refuses and records a forged notify, a wrong amount and an unknown out_trade_no', async () => {
    const owner = await createOwner(server.app);
    const payment = await recharge(owner, 'alipay', 30);
    const trade = {
      outTradeNo: payment.out_trade_no,
      totalAmount: '30.00',
      notifyUrl: '',
      returnUrl: '',
      status: 'TRADE_SUCCESS' as const,
      tradeNo: '2026000111',
    };
    const url = `${server.url}${ALIPAY_NOTIFY_PATH}`;
    const forged = await alipay.postNotify(url, alipay.notifyFor(trade, {}, true));
    expect(forged.status).toBe(400);
    expect(await forged.text()).toBe('fail');
    const edited = alipay.notifyFor(trade);
    edited.total_amount = '0.01';
    expect((await alipay.postNotify(url, edited)).status).toBe(400);
    await alipay.postNotify(url, alipay.notifyFor(trade, { total_amount: '3.00' }));
    await alipay.postNotify(url, alipay.notifyFor({ ...trade, outTradeNo: 'R-UNKNOWN-ORDER' }));

    expect(await bill(owner, payment.id)).toMatchObject({ status: 'unpaid' });
    expect(await balance(owner)).toBe(0);
    const refused = await server.app.orm.em.fork().find(PaymentEvent, {
      provider: 'alipay',
      outcome: 'refused',
      outTradeNo: { $in: [payment.out_trade_no, 'R-UNKNOWN-ORDER'] },
    });
    const reasons = refused.map((event) => event.reason).join('\n');
    expect(reasons).toMatch(/signature does not verify/);
    expect(reasons).toMatch(/does not match/);
    expect(reasons).toMatch(/unknown out_trade_no/);
  });

  it('refresh queries the trade', async () => {
    const owner = await createOwner(server.app);
    const payment = await recharge(owner, 'alipay', 5);
    const refresh = () =>
      rest<TPayment>(server.app, 'GET', '/api/pay/refresh', {
        token: owner.token,
        query: { out_trade_no: payment.out_trade_no },
      });
    expect((await refresh()).data.status).toBe('unpaid');
    alipay.trades.set(payment.out_trade_no, {
      outTradeNo: payment.out_trade_no,
      totalAmount: '5.00',
      notifyUrl: '',
      returnUrl: '',
      status: 'TRADE_SUCCESS',
      tradeNo: '2026000222',
    });
    const paid = await refresh();
    expect(paid.data).toMatchObject({ status: 'paid', transactionNo: '2026000222' });
    expect(await balance(owner)).toBe(5);
    expect(alipay.badSignatures).toBe(0);
  });
});
