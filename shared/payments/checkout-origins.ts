/**
 * The origins of the providers' hosted checkouts: where a page of ours may send a person with the
 * redirect that answers its form (docs/behaviour.md "Checkout from our own pages"). Chromium holds that
 * redirect to the page's CSP form-action, which must name them.
 */
import { config } from '../config';

/** Stripe Checkout's hosted pages (a session's `url`). */
export const STRIPE_CHECKOUT_ORIGIN = 'https://checkout.stripe.com';

/** Stripe's, and the sandbox's own origin where the stage runs it. */
export function checkoutOrigins(): string[] {
  const { sandboxPayments, sandboxBaseUrl } = config();
  return [STRIPE_CHECKOUT_ORIGIN, ...(sandboxPayments && sandboxBaseUrl ? [new URL(sandboxBaseUrl).origin] : [])];
}
