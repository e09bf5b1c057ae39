// The sandbox's checkout page: what a provider's hosted page does, with test money. It shows the bill and offers
// Pay (settles it as a provider notification would) and Cancel (closes the bill, which can then no longer be paid);
// either way the payer goes back where the recharge said (the bill, and from there the purchase it was for).
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { billing, isReturnPath } from '@rooms/api';
import { Payment } from '@rooms/db';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SANDBOX_CHECKOUT_PATH } from './sandbox-provider';

const texts = {
  'en-US': {
    title: 'Sandbox checkout',
    note: 'Test money: no real payment is made.',
    order: 'Order number',
    amount: 'Amount',
    pay: 'Pay',
    cancel: 'Cancel',
    gone: 'This bill cannot be paid: it does not exist, is already paid or has expired.',
    back: 'Back to the bills',
  },
  'zh-CN': {
    title: '沙盒收银台',
    note: '测试资金：不会产生真实付款。',
    order: '订单号',
    amount: '金额',
    pay: '支付',
    cancel: '取消',
    gone: '此账单无法支付：账单不存在、已支付或已过期。',
    back: '返回账单',
  },
} as const;

function localeOf(request: FastifyRequest): keyof typeof texts {
  const cookie = request.headers.cookie ?? '';
  const language = /(?:^|;\s*)language=([^;]*)/.exec(cookie)?.[1];
  if (language && decodeURIComponent(language) === 'zh-CN') return 'zh-CN';
  if (!language && /^zh\b/i.test(request.headers['accept-language'] ?? '')) return 'zh-CN';
  return 'en-US';
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function page(lang: string, title: string, body: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;background:#0f172a;color:#e2e8f0;display:flex;justify-content:center;padding:4rem 1rem}
main{background:#1e293b;border-radius:12px;padding:2rem;max-width:28rem;width:100%}h1{margin-top:0}dl{display:grid;grid-template-columns:auto 1fr;gap:.5rem 1rem}
dt{color:#94a3b8}.actions{display:flex;gap:1rem;margin-top:1.5rem}button,a.button{font:inherit;padding:.6rem 1.4rem;border-radius:8px;border:0;cursor:pointer;text-decoration:none}
.pay{background:#10b981;color:#052e16}.cancel{background:#334155;color:#e2e8f0}.note{color:#fbbf24}</style></head><body><main>${body}</main></body></html>`;
}

function sendPage(reply: FastifyReply, status: number, html: string) {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(html);
}

async function payableBill(em: EntityManager, outTradeNo: unknown, now: Date): Promise<Payment | null> {
  if (typeof outTradeNo !== 'string' || outTradeNo.length > 64) return null;
  const payment = await em.findOne(Payment, { outTradeNo, method: 'sandbox' });
  if (payment?.status !== 'unpaid' || payment.expiresAt <= now) return null;
  return payment;
}

/** The way back the payment link carries, when it is a path of this site; else the bill (or the bill list). */
function returnPath(value: unknown, outTradeNo: string | null): string {
  if (isReturnPath(value)) return value;
  return outTradeNo ? `/bill?out_trade_no=${encodeURIComponent(outTradeNo)}` : '/bill';
}

/** Redirects stay on the address the payer used (a path), which is where the payment link sent them. */
export function registerSandboxCheckout(app: FastifyInstance): void {
  const gone = (request: FastifyRequest, reply: FastifyReply) => {
    const lang = localeOf(request);
    const t = texts[lang];
    return sendPage(
      reply,
      404,
      page(
        lang,
        t.title,
        `<h1>${t.title}</h1><p>${t.gone}</p><p><a class="button cancel" href="/bill">${t.back}</a></p>`,
      ),
    );
  };

  app.get(SANDBOX_CHECKOUT_PATH, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const payment = await payableBill(app.orm.em.fork(), query.out_trade_no, app.services.now());
    if (!payment) return gone(request, reply);
    const lang = localeOf(request);
    const t = texts[lang];
    const no = escapeHtml(payment.outTradeNo);
    const back = `<input type="hidden" name="return" value="${escapeHtml(returnPath(query.return, payment.outTradeNo))}">`;
    const amount = `${(payment.amountCents / 100).toFixed(2)} ${payment.currency.toUpperCase()}`;
    return sendPage(
      reply,
      200,
      page(
        lang,
        t.title,
        `<h1>${t.title}</h1><p class="note">${t.note}</p>
<dl><dt>${t.order}</dt><dd>${no}</dd><dt>${t.amount}</dt><dd>${escapeHtml(amount)}</dd></dl>
<div class="actions"><form method="post" action="${SANDBOX_CHECKOUT_PATH}/pay"><input type="hidden" name="out_trade_no" value="${no}">${back}<button class="pay" type="submit">${t.pay}</button></form>
<form method="post" action="${SANDBOX_CHECKOUT_PATH}/cancel"><input type="hidden" name="out_trade_no" value="${no}">${back}<button class="cancel" type="submit">${t.cancel}</button></form></div>`,
      ),
    );
  });

  app.post(`${SANDBOX_CHECKOUT_PATH}/pay`, async (request, reply) => {
    const form = request.body as Record<string, unknown> | undefined;
    const em = app.orm.em.fork();
    const now = app.services.now();
    const payment = await payableBill(em, form?.out_trade_no, now);
    if (!payment) return gone(request, reply);
    const result = await billing.settlePayment(
      em,
      {
        provider: 'sandbox',
        eventId: `pay:${payment.outTradeNo}`,
        outTradeNo: payment.outTradeNo,
        amountCents: payment.amountCents,
        currency: payment.currency,
        transactionNo: `SBX${now.getTime()}${randomBytes(4).toString('hex').toUpperCase()}`,
      },
      now,
    );
    request.log.info({ outTradeNo: payment.outTradeNo, outcome: result.outcome }, 'sandbox payment');
    return reply.redirect(returnPath(form?.return, payment.outTradeNo), 303);
  });

  // The payer gave up: the bill is closed (the sandbox's own bills only), and they go back to see it so.
  app.post(`${SANDBOX_CHECKOUT_PATH}/cancel`, async (request, reply) => {
    const form = request.body as Record<string, unknown> | undefined;
    const outTradeNo = typeof form?.out_trade_no === 'string' ? form.out_trade_no.slice(0, 64) : '';
    if (outTradeNo) {
      const closed = await billing.closeUnpaidBill(
        app.orm.em.fork(),
        { outTradeNo, method: 'sandbox' },
        app.services.now(),
      );
      if (closed) request.log.info({ outTradeNo }, 'sandbox payment cancelled');
    }
    return reply.redirect(returnPath(form?.return, outTradeNo || null), 303);
  });
}
