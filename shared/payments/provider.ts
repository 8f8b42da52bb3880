/**
 * The payment provider port. The service never trusts a redirect: it asks the provider what
 * happened to a checkout and acts on that answer only.
 */
import type { ProviderSettings } from '../store/payment-store';

export interface CheckoutRequest {
  orderReference: string;
  /** The order's payment attempt (1 on creation): one checkout per order and attempt. */
  attempt: number;
  amountMinor: number;
  currency: string;
  customer: { name?: string; email: string; phone?: string };
  description: string;
  /** Where the provider sends the guest back: the service's verify URL for this order. */
  returnUrl: string;
  settings: ProviderSettings;
  /**
   * When the checkout stops taking payment (a guest's room hold ends then). Absent: the
   * provider's default (Stripe: 24 hours; the sandbox: never).
   */
  expiresAt?: Date;
}

export interface Checkout {
  providerReference: string;
  checkoutUrl: string;
}

/** `not_found`: the provider does not know the checkout (on the attempt's account): never taken as a failure. */
export type CheckoutState = 'open' | 'paid' | 'failed' | 'cancelled' | 'expired' | 'not_found';

export interface ProviderPayment {
  state: CheckoutState;
  amountMinor: number;
  currency: string;
  /** The provider's id of the charge or payment, when paid. */
  paymentId?: string;
  /** The provider's own answer, kept as the provider event. */
  raw: unknown;
}

export interface PaymentProvider {
  readonly name: string;
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
  /** `settings`: the provider account the attempt was created on, not the client's current one. */
  getPayment(providerReference: string, settings: ProviderSettings): Promise<ProviderPayment>;
}
