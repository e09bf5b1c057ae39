// Where payment providers reach the server: the sandbox's checkout page, and the providers' notifications
// (Stripe webhooks, Alipay notify), each verified by the provider's own SDK before anything is credited. Refused
// notifications are answered, logged and kept in payment_events with the reason.
import { billing } from '@rooms/api';
import { Payment } from '@rooms/db';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { TConfig } from '../env';
import { ALIPAY_NOTIFY_PATH } from '../services/payments/alipay-provider';
import { registerSandboxCheckout } from '../services/payments/sandbox-checkout';
import { STRIPE_WEBHOOK_PATH } from '../services/payments/stripe-provider';

type TSettlement = Parameters<typeof billing.settlePayment>[1];

async function settle(app: FastifyInstance, log: FastifyBaseLogger, settlement: TSettlement) {
  const result = await billing.settlePayment(app.orm.em.fork(), settlement, app.services.now());
  const details = {
    provider: settlement.provider,
    outTradeNo: settlement.outTradeNo,
    eventId: settlement.eventId,
  };
  if (result.outcome === 'refused')
    log.warn({ ...details, reason: result.reason }, 'payment notification refused');
  else log.info({ ...details, outcome: result.outcome }, 'payment notification');
  return result;
}

async function refuse(
  app: FastifyInstance,
  log: FastifyBaseLogger,
  provider: string,
  reason: string,
  outTradeNo?: string,
) {
  log.warn({ provider, outTradeNo, reason }, 'payment notification refused');
  await billing.recordRefusal(app.orm.em.fork(), provider, { outTradeNo: outTradeNo ?? null, reason });
}

export const paymentsPlugin = fp(
  async (app, options: { config: TConfig }) => {
    const { config } = options;
    const { stripe, alipay } = app.payments;

    // Provider pages and Alipay's notify post forms: parsed in this scope only, as plain text fields.
    await app.register(async (scope) => {
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 64 * 1024 },
        (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
      );
      if (config.payments.providers.includes('sandbox')) {
        registerSandboxCheckout(scope);
      }

      if (alipay) {
        // Alipay retries until it reads `success`; a forged notify is answered `fail`.
        scope.post(ALIPAY_NOTIFY_PATH, async (request, reply) => {
          const form = (request.body ?? {}) as Record<string, string>;
          const notification = alipay.parseNotify(form);
          reply.header('content-type', 'text/plain');
          if (!notification) {
            await refuse(app, request.log, 'alipay', 'signature does not verify', form.out_trade_no);
            return reply.code(400).send('fail');
          }
          if (notification.kind === 'paid') {
            await settle(app, request.log, { provider: 'alipay', ...notification });
          } else if (notification.status === 'TRADE_CLOSED') {
            await app.orm.em
              .fork()
              .nativeUpdate(
                Payment,
                { outTradeNo: notification.outTradeNo, method: 'alipay', status: 'unpaid' },
                { status: 'expired' },
              );
          }
          return reply.send('success');
        });
      }
    });

    if (stripe) {
      // The signature covers the exact bytes Stripe sent, so this route keeps its body raw.
      await app.register(async (scope) => {
        scope.addContentTypeParser(
          'application/json',
          { parseAs: 'buffer', bodyLimit: 256 * 1024 },
          (_request, body, done) => done(null, body),
        );
        scope.post(STRIPE_WEBHOOK_PATH, async (request, reply) => {
          let notification: ReturnType<typeof stripe.parseWebhook>;
          try {
            const signature = request.headers['stripe-signature'];
            notification = stripe.parseWebhook(
              Buffer.isBuffer(request.body) ? request.body : Buffer.from(''),
              typeof signature === 'string' ? signature : undefined,
            );
          } catch (error) {
            await refuse(
              app,
              request.log,
              'stripe',
              `signature does not verify: ${(error as Error).message}`,
            );
            return reply.code(400).send({ error: 'signature does not verify' });
          }
          if (notification.kind === 'paid') {
            await settle(app, request.log, { provider: 'stripe', ...notification });
          } else if (notification.kind === 'expired') {
            await app.orm.em
              .fork()
              .nativeUpdate(
                Payment,
                { outTradeNo: notification.outTradeNo, method: 'stripe', status: 'unpaid' },
                { status: 'expired' },
              );
          }
          return reply.send({ received: true });
        });
      });
    }
  },
  { name: 'payments', dependencies: ['services'] },
);
