// Payment providers as the API sees them. apps/server implements one per method (sandbox, stripe, alipay) with
// the provider's own SDK; procedures and the billing domain only ever talk to this port.

export type TPaymentMethod = 'sandbox' | 'stripe' | 'alipay';

export interface TCheckoutRequest {
  outTradeNo: string;
  amountCents: number;
  currency: string;
  /** What the payer sees on the provider's page. */
  subject: string;
  /** Where the provider sends the payer back afterwards (absolute). */
  returnUrl: string;
  /** This site's address as the payer reached it (no trailing slash): our own checkout page (the sandbox) is there. */
  siteUrl: string;
  expiresAt: Date;
}

export interface TCheckout {
  /** The page the payer is sent to: an absolute address, whoever shows it and wherever. */
  paymentUrl: string;
  /** The provider's own id for the order, when it has one beside out_trade_no (a Stripe Checkout Session id). */
  providerRef: string | null;
}

/** What the provider says about an order when asked (refresh). */
export type TProviderStatus =
  | { status: 'paid'; transactionNo: string; amountCents: number; currency: string }
  | { status: 'unpaid' }
  | { status: 'expired' }
  | { status: 'unknown' };

export interface PaymentProvider {
  readonly method: TPaymentMethod;
  /** Shown on the recharge screen. */
  readonly name: string;
  readonly currency: string;
  /** Creates the order at the provider. Throws AppError PAYMENT_PROVIDER_FAILED when it cannot be reached. */
  createCheckout(request: TCheckoutRequest): Promise<TCheckout>;
  /** Asks the provider about the order; 'unknown' when it cannot tell (or cannot be reached). */
  query(order: { outTradeNo: string; providerRef: string | null }): Promise<TProviderStatus>;
}

export interface PaymentGateway {
  /** The methods on offer, in the order the recharge screen lists them. */
  readonly providers: readonly PaymentProvider[];
  /** How long an unpaid bill stays payable. */
  readonly paymentTtlMs: number;
}
