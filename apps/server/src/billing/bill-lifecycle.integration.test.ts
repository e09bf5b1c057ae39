// A bill's life over REST against the real server and database: its absolute payment link, the way back to the
// purchase a recharge was for, a sandbox Cancel that closes it, and the 30 minutes after which it reads expired
// (even before the expiry job has stored it).
import { Payment } from '@rooms/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_CHECKOUT_PATH } from '../services/payments/sandbox-provider';
import { rest } from '../testing/rest-client';
import { createOwner, type TTestOwner } from '../testing/room-test-users';
import { startTestServer, type TTestServer } from '../testing/test-server';

const PUBLIC_URL = 'https://rooms.example.test';
let server: TTestServer;

beforeAll(async () => {
  // The expiry job stays off: a bill must read expired by its time alone.
  server = await startTestServer({ listen: false, env: { BILLING_JOBS: 'off', PUBLIC_URL } });
});
afterAll(async () => {
  await server?.close();
});

interface TPayment {
  id: string;
  out_trade_no: string;
  status: string;
  createdAt: string;
  expiresAt: string;
  paymentUrl: string | null;
}

async function recharge(owner: TTestOwner, body: Record<string, unknown>) {
  return rest<TPayment>(server.app, 'POST', '/api/pay/recharge', {
    token: owner.token,
    body: { method: 'sandbox', amount: 5, ...body },
  });
}

async function bill(owner: TTestOwner, id: string): Promise<TPayment> {
  const reply = await rest<TPayment>(server.app, 'GET', '/api/pay/getPayInfo', {
    token: owner.token,
    query: { id },
  });
  expect(reply.msg).toBe('success');
  return reply.data;
}

async function balance(owner: TTestOwner): Promise<number> {
  return (await rest<{ balance: number }>(server.app, 'GET', '/api/user/userinfo', { token: owner.token }))
    .data.balance;
}

/** Posts one of the checkout page's forms as the payer's browser would, with the fields the page holds. */
async function submitCheckout(paymentUrl: string, button: 'pay' | 'cancel') {
  const link = new URL(paymentUrl, PUBLIC_URL);
  const page = await server.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
  expect(page.statusCode).toBe(200);
  const form = [...page.body.matchAll(/<form method="post" action="([^"]+)">(.*?)<\/form>/g)].find((match) =>
    match[1]?.endsWith(`/${button}`),
  );
  if (!form?.[1] || !form[2]) throw new Error(`no ${button} form on the checkout page`);
  const fields = new URLSearchParams();
  for (const input of form[2].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields.set(
      input[1] ?? '',
      (input[2] ?? '').replace(/&#(\d+);/g, (_, code) => String.fromCharCode(code)),
    );
  }
  return server.app.inject({
    method: 'POST',
    url: form[1],
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: fields.toString(),
  });
}

describe('the payment link', () => {
  it('is an absolute address on the configured public URL', async () => {
    const owner = await createOwner(server.app);
    const created = await recharge(owner, {});
    expect(created.msg).toBe('success');
    expect(created.data.paymentUrl).toMatch(new RegExp(`^${PUBLIC_URL}${SANDBOX_CHECKOUT_PATH}\\?`));
    const link = new URL(created.data.paymentUrl ?? '', PUBLIC_URL);
    expect(link.searchParams.get('out_trade_no')).toBe(created.data.out_trade_no);
    // The bill screen shows the same link.
    expect((await bill(owner, created.data.id)).paymentUrl).toBe(created.data.paymentUrl);
  });
});

describe('the way back to a purchase', () => {
  it('brings the payer back through the bill to the page the recharge named, once paid', async () => {
    const owner = await createOwner(server.app);
    const created = await recharge(owner, { amount: 9.99, returnTo: '/planlist?buy=pro' });
    expect(created.msg).toBe('success');
    const paid = await submitCheckout(created.data.paymentUrl ?? '', 'pay');
    expect(paid.statusCode).toBe(303);
    const back = new URL(paid.headers.location ?? '', PUBLIC_URL);
    expect(back.pathname).toBe('/bill');
    expect(back.searchParams.get('out_trade_no')).toBe(created.data.out_trade_no);
    expect(back.searchParams.get('returnTo')).toBe('/planlist?buy=pro');
    expect(await balance(owner)).toBe(9.99);
  });

  it('refuses a way back that leaves the site, with a reason', async () => {
    const owner = await createOwner(server.app);
    for (const returnTo of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'planlist']) {
      const refused = await recharge(owner, { returnTo });
      expect(refused, returnTo).toMatchObject({
        status: 400,
        msg: 'error',
        data: 'The page to return to must be a page of this site',
      });
    }
  });

  it('does not follow a forged way back off the site from the checkout page', async () => {
    const owner = await createOwner(server.app);
    const created = await recharge(owner, {});
    const link = new URL(created.data.paymentUrl ?? '', PUBLIC_URL);
    const paid = await server.app.inject({
      method: 'POST',
      url: `${link.pathname}/pay`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        out_trade_no: created.data.out_trade_no,
        return: '//evil.example/phish',
      }).toString(),
    });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`/bill?out_trade_no=${created.data.out_trade_no}`);
  });
});

describe('cancelling on the sandbox page', () => {
  it('closes the bill: it reads expired, can no longer be paid, and credits nothing', async () => {
    const owner = await createOwner(server.app);
    const created = await recharge(owner, { amount: 7 });
    const cancelled = await submitCheckout(created.data.paymentUrl ?? '', 'cancel');
    expect(cancelled.statusCode).toBe(303);
    expect(cancelled.headers.location).toContain(`/bill?out_trade_no=${created.data.out_trade_no}`);

    const closed = await bill(owner, created.data.id);
    expect(closed).toMatchObject({ status: 'expired', paymentUrl: null });
    // The link it had leads nowhere now, and paying through it is refused.
    const link = new URL(created.data.paymentUrl ?? '', PUBLIC_URL);
    expect(
      (await server.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` })).statusCode,
    ).toBe(404);
    const late = await server.app.inject({
      method: 'POST',
      url: `${link.pathname}/pay`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `out_trade_no=${created.data.out_trade_no}`,
    });
    expect(late.statusCode).toBe(404);
    const refreshed = await rest<TPayment>(server.app, 'GET', '/api/pay/refresh', {
      token: owner.token,
      query: { out_trade_no: created.data.out_trade_no },
    });
    expect(refreshed.data.status).toBe('expired');
    expect(await balance(owner)).toBe(0);
  });
});

describe('expiry', () => {
  it('gives a bill 30 minutes, then shows it expired without its link, before any job has run', async () => {
    const owner = await createOwner(server.app);
    const created = await recharge(owner, {});
    const { createdAt, expiresAt } = created.data;
    expect(new Date(expiresAt).getTime() - new Date(createdAt).getTime()).toBe(30 * 60_000);

    // 31 minutes later (the bill moved back in time; the expiry job is off in this server).
    const em = server.app.orm.em.fork();
    const row = await em.findOneOrFail(Payment, created.data.id);
    row.createdAt = new Date(Date.now() - 31 * 60_000);
    row.expiresAt = new Date(row.createdAt.getTime() + 30 * 60_000);
    await em.flush();

    expect(await bill(owner, created.data.id)).toMatchObject({ status: 'expired', paymentUrl: null });
    const list = await rest<{ items: TPayment[] }>(server.app, 'GET', '/api/pay/getPayList', {
      token: owner.token,
    });
    expect(list.data.items.map((item) => [item.id, item.status, item.paymentUrl])).toEqual([
      [created.data.id, 'expired', null],
    ]);
    const link = new URL(created.data.paymentUrl ?? '', PUBLIC_URL);
    expect(
      (await server.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` })).statusCode,
    ).toBe(404);
  });
});
