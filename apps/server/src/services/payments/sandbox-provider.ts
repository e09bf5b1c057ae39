// The sandbox provider: test money through our own checkout page (plugins/payments.ts serves it), so a fresh
// `npm start` can recharge end to end. Refused in production by the configuration (config/payments.ts).
import type { PaymentProvider } from '@rooms/api';

export const SANDBOX_CHECKOUT_PATH = '/api/pay/sandbox/checkout';

/**
 * The payment link is an absolute address on this site, as the payer reached it, like any provider's: it is shown,
 * copied and opened from wherever. It carries the way back (the return URL's path), which the checkout page follows
 * only as a path of this site.
 */
export function createSandboxProvider(): PaymentProvider {
  return {
    method: 'sandbox',
    name: 'Sandbox (test money)',
    currency: 'usd',
    async createCheckout(request) {
      const back = new URL(request.returnUrl);
      const query = new URLSearchParams({
        out_trade_no: request.outTradeNo,
        return: `${back.pathname}${back.search}`,
      });
      return { paymentUrl: `${request.siteUrl}${SANDBOX_CHECKOUT_PATH}?${query}`, providerRef: null };
    },
    // The checkout page settles at once when Pay is pressed and closes the bill on Cancel; an order still open is
    // simply unpaid.
    async query() {
      return { status: 'unpaid' };
    },
  };
}
