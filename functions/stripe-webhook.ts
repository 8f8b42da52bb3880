import type Stripe from 'stripe';
import { stripeWebhookRoute } from '../definitions/payment-routes';
import { reconcileOrder } from '../shared/domain/payments/reconcile-payment-order';
import { settleStripeRefundEvent, STRIPE_REFUND_EVENTS } from '../shared/domain/payments/refund-settlement';
import { errors } from '../shared/errors';
import { publicHandler } from '../shared/http/handler';
import { logger } from '../shared/observability';
import { constructStripeEvent } from '../shared/payments/stripe';
import { StripeNotConfiguredError, stripeSecret } from '../shared/payments/stripe-secrets';
import { getOrder } from '../shared/store/payment-store';

/** Checkout events after which the order may have changed: completed (paid, or paying later), failed, expired. */
const CHECKOUT_EVENTS = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
]);

const received = { status: 200, body: { received: true } };

/**
 * Public, but only Stripe can sign: the Stripe-Signature header is checked over the exact raw
 * body before anything else. The event is a hint, never the truth: the order is reconciled by
 * asking Stripe again, exactly as the guest's return does, so an order is paid even when the
 * guest never comes back. Anything not ours (other events, unknown orders) is acknowledged with
 * 200 so Stripe does not retry it for days; a failure to reconcile answers 5xx so it does.
 */
export const handler = publicHandler(stripeWebhookRoute, {}, async ({ body, headers }) => {
  const payload = typeof body === 'string' ? body : '';
  const secret = await stripeSecret('webhookSecret').catch((error: unknown) => {
    if (!(error instanceof StripeNotConfiguredError)) throw error;
    // A platform without Stripe has no such endpoint; nothing here is worth a 500 or a retry.
    logger.warn('Stripe webhook called, but Stripe is not configured', { reason: error.message });
    throw errors.stripeWebhooksNotConfigured();
  });
  const event = await constructStripeEvent(payload, headers['stripe-signature'], secret);
  const log = { stripe_event_id: event.id, stripe_event_type: event.type, stripe_account: event.account ?? null };
  if (STRIPE_REFUND_EVENTS.has(event.type)) {
    // A refund Stripe settled later (pending, or failed after it succeeded): asked again and recorded.
    const settled = await settleStripeRefundEvent(event.data.object);
    logger.info('Stripe refund event reconciled', { ...log, refunds: settled.map((r) => ({ refund_id: r.refund_id, status: r.status })) });
    return received;
  }
  if (!CHECKOUT_EVENTS.has(event.type)) {
    logger.info('Stripe event ignored', log);
    return received;
  }
  const session = event.data.object as Stripe.Checkout.Session;
  const orderReference = session.metadata?.order_reference || session.client_reference_id;
  // Our references are short; anything else in a session's metadata is not one of ours.
  const order = orderReference && orderReference.length <= 128 ? await getOrder(orderReference) : undefined;
  if (!order || order.provider !== 'stripe') {
    logger.info('Stripe event for no Stripe order of this service', { ...log, order_reference: orderReference ?? null });
    return received;
  }
  const reconciled = await reconcileOrder(order.order_reference);
  logger.info('Stripe event reconciled', {
    ...log,
    order_reference: order.order_reference,
    session_id: session.id,
    current_session: session.id === order.provider_reference,
    status: reconciled?.status ?? null,
  });
  return received;
});
