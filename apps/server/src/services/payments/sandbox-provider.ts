// The sandbox provider: test money through our own checkout page (plugins/payments.ts serves it), so a fresh
// `npm start` can recharge end to end. Refused in production by env.ts.
import type { PaymentProvider } from '@rooms/api';

export const SANDBOX_CHECKOUT_PATH = '/api/pay/sandbox/checkout';

/** The payment link is a path on this server: the checkout page is ours, on whatever address the payer uses. */
export function createSandboxProvider(): PaymentProvider {
  return {
    method: 'sandbox',
    name: 'Sandbox (test money)',
    currency: 'usd',
    async createCheckout(request) {
      const query = new URLSearchParams({ out_trade_no: request.outTradeNo });
      return { paymentUrl: `${SANDBOX_CHECKOUT_PATH}?${query}`, providerRef: null };
    },
    // The checkout page settles at once when Pay is pressed; an order still open is simply unpaid.
    async query() {
      return { status: 'unpaid' };
    },
  };
}
