// The payment methods this server offers, built from the configuration (PAYMENT_PROVIDERS). The Stripe and
// Alipay providers are handed out beside the gateway too, for the plugin that receives their notifications.
import type { PaymentGateway, PaymentProvider } from '@rooms/api';
import type { TPaymentConfig } from '../../env';
import { ALIPAY_NOTIFY_PATH, type AlipayProvider, createAlipayProvider } from './alipay-provider';
import { createSandboxProvider } from './sandbox-provider';
import { createStripeProvider, type StripeProvider } from './stripe-provider';

export interface TPaymentServices {
  gateway: PaymentGateway;
  stripe: StripeProvider | null;
  alipay: AlipayProvider | null;
}

export function createPayments(config: TPaymentConfig, options: { publicUrl: string }): TPaymentServices {
  const providers: PaymentProvider[] = [];
  let stripe: StripeProvider | null = null;
  let alipay: AlipayProvider | null = null;
  for (const name of config.providers) {
    if (name === 'sandbox') providers.push(createSandboxProvider());
    if (name === 'stripe' && config.stripe) {
      stripe = createStripeProvider(config.stripe);
      providers.push(stripe);
    }
    if (name === 'alipay' && config.alipay) {
      alipay = createAlipayProvider({
        ...config.alipay,
        notifyUrl: `${options.publicUrl}${ALIPAY_NOTIFY_PATH}`,
      });
      providers.push(alipay);
    }
  }
  return { gateway: { providers, paymentTtlMs: config.ttlMinutes * 60_000 }, stripe, alipay };
}
