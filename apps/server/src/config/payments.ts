// Payments: the methods on offer and their credentials, how long a bill stays payable, and whether this process
// runs the scheduled billing work.
import { z } from 'zod';
import type { TEnv } from '../env';
import { commaList, optionalString, type TReport } from './variable';

export const paymentVariables = {
  /**
   * Comma-separated payment methods on offer: sandbox (our own checkout page, test money, never in production),
   * stripe, alipay. Unset: sandbox outside production, none in production.
   */
  PAYMENT_PROVIDERS: optionalString,
  /** How long an unpaid bill stays payable. */
  PAYMENT_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(5)
    .max(24 * 60)
    .default(30),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  /** Another Stripe API address (tests answer as Stripe from a local server). */
  STRIPE_API_URL: optionalString.pipe(z.url().optional()),
  ALIPAY_APP_ID: optionalString,
  /** The app's RSA private key (PEM or bare base64 PKCS#1/PKCS#8). */
  ALIPAY_PRIVATE_KEY: optionalString,
  /** Alipay's RSA public key, which signs its notifications and replies. */
  ALIPAY_PUBLIC_KEY: optionalString,
  /** Another Alipay gateway (the sandbox one, or a local server in tests). */
  ALIPAY_GATEWAY: optionalString.pipe(z.url().optional()),
  /** Scheduled billing work (bill expiry, renewals, metering) on the PostgreSQL job queue. */
  BILLING_JOBS: z.enum(['on', 'off']).default('on'),
};

export const paymentProviders = ['sandbox', 'stripe', 'alipay'] as const;
export type TPaymentProviderName = (typeof paymentProviders)[number];

function paymentProvidersOf(env: TEnv): string[] {
  if (env.PAYMENT_PROVIDERS === undefined) return env.NODE_ENV === 'production' ? [] : ['sandbox'];
  return [...new Set(commaList(env.PAYMENT_PROVIDERS.toLowerCase()))];
}

/** The variables each method needs. */
const required: Record<string, readonly (keyof TEnv)[]> = {
  stripe: ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'],
  alipay: ['ALIPAY_APP_ID', 'ALIPAY_PRIVATE_KEY', 'ALIPAY_PUBLIC_KEY'],
};

export function paymentIssues(env: TEnv, report: TReport): void {
  const providers = paymentProvidersOf(env);
  for (const provider of providers) {
    if (!(paymentProviders as readonly string[]).includes(provider)) {
      report('PAYMENT_PROVIDERS', `unknown provider ${provider}; choose from ${paymentProviders.join(', ')}`);
    }
  }
  if (env.NODE_ENV === 'production' && providers.includes('sandbox')) {
    report('PAYMENT_PROVIDERS', 'sandbox takes test money and is refused in production');
  }
  for (const provider of providers) {
    for (const name of required[provider] ?? []) {
      if (!env[name]) report(name, `is required when PAYMENT_PROVIDERS has ${provider}`);
    }
  }
}

export function paymentConfig(env: TEnv) {
  return {
    payments: {
      providers: paymentProvidersOf(env) as TPaymentProviderName[],
      ttlMinutes: env.PAYMENT_TTL_MINUTES,
      stripe:
        env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET
          ? {
              secretKey: env.STRIPE_SECRET_KEY,
              webhookSecret: env.STRIPE_WEBHOOK_SECRET,
              apiUrl: env.STRIPE_API_URL,
            }
          : null,
      alipay:
        env.ALIPAY_APP_ID && env.ALIPAY_PRIVATE_KEY && env.ALIPAY_PUBLIC_KEY
          ? {
              appId: env.ALIPAY_APP_ID,
              privateKey: env.ALIPAY_PRIVATE_KEY,
              alipayPublicKey: env.ALIPAY_PUBLIC_KEY,
              gateway: env.ALIPAY_GATEWAY,
            }
          : null,
    },
    /** Run the scheduled billing work in this process. */
    billingJobs: env.BILLING_JOBS === 'on',
  };
}
