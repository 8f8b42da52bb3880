/**
 * The payment provider port. The service never trusts a redirect: it asks the provider what
 * happened to a checkout and acts on that answer only.
 */
import type { ProviderSettings } from '../store/payment-store';
import type { Language } from '../i18n/languages';

/** One line of a checkout: what it is for, and its amount in minor units. */
export interface CheckoutLine {
  name: string;
  amountMinor: number;
}

export interface CheckoutRequest {
  orderReference: string;
  /** The order's payment attempt (1 on creation): one checkout per order and attempt. */
  attempt: number;
  amountMinor: number;
  currency: string;
  customer: { name?: string; email: string; phone?: string };
  description: string;
  /** What the checkout lists, summing to `amountMinor` (a guest booking: the room, then its taxes); absent: one line, the description. */
  lines?: CheckoutLine[];
  /** Where the provider sends the guest back: the service's verify URL for this order. */
  returnUrl: string;
  settings: ProviderSettings;
  /** The guest's language (a guest page's order): the checkout speaks it (Stripe's `locale`). Absent: the provider's own choice. */
  language?: Language;
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

export interface PaymentProvider extends RefundingProvider {
  readonly name: string;
  /**
   * When a checkout opened now for a wanted end really stops taking payment: the wanted end, or
   * the provider's shortest life when that is later (Stripe: 30 minutes and some seconds from
   * its call). A guest's room is held until then, so no checkout can be paid after its hold ends;
   * createCheckout is then given exactly that end, and refuses (503) rather than outlive it.
   */
  checkoutEnd(wanted: Date, now: Date): Date;
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
  /** `settings`: the provider account the attempt was created on, not the client's current one. */
  getPayment(providerReference: string, settings: ProviderSettings): Promise<ProviderPayment>;
}

// ---- refunds

export interface RefundRequest {
  orderReference: string;
  /** The service's refund id: the provider's idempotency key, so a retried call never refunds twice. */
  refundId: string;
  /** The paid attempt's checkout (sandbox session, Stripe Checkout Session). */
  checkoutReference: string;
  /** The provider's payment id recorded when the order was paid (Stripe's PaymentIntent), when known. */
  paymentId?: string;
  amountMinor: number;
  currency: string;
  reason?: string;
  /** The provider account the order was paid on. */
  settings: ProviderSettings;
}

/** `pending`: the provider settles it later and says so by webhook (Stripe's `refund.updated`). */
export type RefundState = 'succeeded' | 'pending' | 'failed';

export interface ProviderRefund {
  /** The provider's id of the refund (Stripe's re_…). */
  providerRefundId: string;
  state: RefundState;
  amountMinor: number;
  currency: string;
  /** Why it failed, in the provider's words. */
  failureReason?: string;
  /** The provider's own answer, kept as the provider event. */
  raw: unknown;
}

/** What finds a refund on the provider: the payment it refunds, and our refund id. */
export type RefundLookup = Pick<RefundRequest, 'orderReference' | 'refundId' | 'checkoutReference' | 'paymentId' | 'settings'>;

export interface RefundingProvider {
  /** Refunds (part of) the order's payment on its account; the same refundId again answers the same refund. */
  refund(request: RefundRequest): Promise<ProviderRefund>;
  /**
   * The refund of the payment made under our refund id (Stripe: its `metadata.refund_id`), read
   * from the payment's refunds; undefined when there is none. Asked before a refund is sent again,
   * as a provider's idempotency keys do not last for ever (Stripe's: at least 24 hours).
   */
  findRefund(lookup: RefundLookup): Promise<ProviderRefund | undefined>;
  /** The refund as the provider now sees it; undefined when it does not know it on this account. */
  getRefund(providerRefundId: string, settings: ProviderSettings): Promise<ProviderRefund | undefined>;
}
