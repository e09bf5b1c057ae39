// Stripe with its official SDK: a Checkout Session per bill, webhooks verified by the SDK's signature check (and
// its timestamp tolerance), and the session retrieved for refresh.
import type { PaymentProvider, TProviderStatus } from '@rooms/api';
import { AppError } from '@rooms/api';
import Stripe from 'stripe';

export const STRIPE_WEBHOOK_PATH = '/api/pay/notify/stripe';
/** Stripe's own default: a signed webhook older than this is refused, so a captured one cannot be replayed later. */
const WEBHOOK_TOLERANCE_SECONDS = 300;
/** Stripe lets a Checkout Session live from 30 minutes to 24 hours. */
const MIN_SESSION_MS = 31 * 60_000;

export interface TStripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** Another API address (tests). */
  apiUrl?: string;
}

interface TSessionLike {
  id: string;
  status: string | null;
  payment_status: string;
  amount_total: number | null;
  currency: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string> | null;
  payment_intent: string | { id: string } | null;
}

/** What a verified webhook event means for a bill. */
export type TStripeNotification =
  | {
      kind: 'paid';
      eventId: string;
      outTradeNo: string;
      amountCents: number;
      currency: string;
      transactionNo: string;
    }
  | { kind: 'expired'; eventId: string; outTradeNo: string }
  | { kind: 'ignored'; eventId: string; type: string };

export interface StripeProvider extends PaymentProvider {
  /** Verifies the signature with the SDK; throws when it does not hold. */
  parseWebhook(rawBody: Buffer, signature: string | undefined): TStripeNotification;
}

function outTradeNoOf(session: TSessionLike): string {
  return session.metadata?.out_trade_no ?? session.client_reference_id ?? '';
}

function transactionOf(session: TSessionLike): string {
  const intent = session.payment_intent;
  return (typeof intent === 'string' ? intent : intent?.id) ?? session.id;
}

export function createStripeProvider(options: TStripeOptions): StripeProvider {
  const api = options.apiUrl ? new URL(options.apiUrl) : null;
  const stripe = new Stripe(options.secretKey, {
    maxNetworkRetries: 1,
    timeout: 15_000,
    telemetry: false,
    ...(api
      ? {
          host: api.hostname,
          port: api.port || (api.protocol === 'https:' ? 443 : 80),
          protocol: api.protocol === 'http:' ? 'http' : 'https',
        }
      : {}),
  });

  return {
    method: 'stripe',
    name: 'Stripe (card)',
    currency: 'usd',
    async createCheckout(request) {
      const expiresAt = Math.max(request.expiresAt.getTime(), Date.now() + MIN_SESSION_MS);
      try {
        const session = await stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: request.currency,
                  unit_amount: request.amountCents,
                  product_data: { name: request.subject },
                },
              },
            ],
            client_reference_id: request.outTradeNo,
            metadata: { out_trade_no: request.outTradeNo },
            success_url: request.returnUrl,
            cancel_url: request.returnUrl,
            expires_at: Math.floor(expiresAt / 1000),
          },
          // The same bill never opens two sessions, even when the call is retried.
          { idempotencyKey: `checkout-${request.outTradeNo}` },
        );
        if (!session.url) throw new Error('Stripe returned a session without a URL');
        return { paymentUrl: session.url, providerRef: session.id };
      } catch (error) {
        throw new AppError('PAYMENT_PROVIDER_FAILED', { cause: error });
      }
    },
    async query(order): Promise<TProviderStatus> {
      if (!order.providerRef) return { status: 'unknown' };
      try {
        const session = (await stripe.checkout.sessions.retrieve(
          order.providerRef,
        )) as unknown as TSessionLike;
        if (session.payment_status === 'paid' || session.payment_status === 'no_payment_required') {
          return {
            status: 'paid',
            transactionNo: transactionOf(session),
            amountCents: session.amount_total ?? 0,
            currency: session.currency ?? '',
          };
        }
        if (session.status === 'expired') return { status: 'expired' };
        return { status: 'unpaid' };
      } catch {
        return { status: 'unknown' };
      }
    },
    parseWebhook(rawBody, signature) {
      const event = stripe.webhooks.constructEvent(
        rawBody,
        signature ?? '',
        options.webhookSecret,
        WEBHOOK_TOLERANCE_SECONDS,
      );
      const session = event.data.object as unknown as TSessionLike;
      switch (event.type) {
        case 'checkout.session.completed':
        case 'checkout.session.async_payment_succeeded':
          if (session.payment_status !== 'paid')
            return { kind: 'ignored', eventId: event.id, type: event.type };
          return {
            kind: 'paid',
            eventId: event.id,
            outTradeNo: outTradeNoOf(session),
            amountCents: session.amount_total ?? 0,
            currency: session.currency ?? '',
            transactionNo: transactionOf(session),
          };
        case 'checkout.session.expired':
          return { kind: 'expired', eventId: event.id, outTradeNo: outTradeNoOf(session) };
        default:
          return { kind: 'ignored', eventId: event.id, type: event.type };
      }
    },
  };
}
