/**
 * Settling an order (docs/behaviour.md "Payment orders", verify): ask the provider about the current
 * attempt's checkout, on the provider and account that attempt was created on, and record what
 * it says. Only the provider's answer marks an order paid; the guest's redirect proves nothing.
 * Used by the verify redirect and by provider webhooks.
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { PAYMENT_METRICS } from '../../../definitions/metrics';
import { errors } from '../../errors';
import { logger, metrics } from '../../observability';
import type { ProviderPayment } from '../../payments/provider';
import { type DeliveryRecord, deliveryPutItem, newDelivery } from '../../store/delivery-store';
import { getEndpoint } from '../../store/endpoint-store';
import { isConditionFailure } from '../../store/items';
import {
  getOrder,
  getProviderSettings,
  type OrderStatus,
  orderUpdateItem,
  type PaymentOrderRecord,
  type ProviderSettings,
  settledAttemptItems,
  transactionItem,
} from '../../store/payment-store';
import { type TransactItem, transactWrite } from '../../store/transactions';
import { paymentOrderPaidPayload } from '../callbacks/payloads';
import { dispatchAll } from '../bookings/service-bookings';
import { releaseCheckoutHold } from '../guest-booking/checkout-holds';
import { guestEmailItem, sendCommittedEmails } from '../guest-email/outbox';
import { paidGuestBookingEmail, paidOrderBookingId, planPaidBooking } from './mirror-paid-booking';
import { NOT_APPLICABLE } from './order-views';
import { isGuestPageOrder } from '../../schemas/payments';
import { isReturnSecretOf } from './order-references';
import { providerFor } from './providers';

/**
 * The provider account the current attempt was created on. Orders recorded before attempts
 * carried their account are Stripe's only case: they fall back to the client's setting.
 */
export async function attemptAccount(order: PaymentOrderRecord): Promise<ProviderSettings> {
  if (order.provider_account || order.provider !== 'stripe') {
    return { provider: order.provider, ...(order.provider_account ? { account: order.provider_account } : {}) };
  }
  const current = await getProviderSettings(order.client_id);
  return { provider: 'stripe', ...(current?.provider === 'stripe' && current.account ? { account: current.account } : {}) };
}

/** Marks the order paid with its transaction, provider event, mirrored booking and webhook, all at once. */
async function commitPaid(order: PaymentOrderRecord, payment: ProviderPayment, now: Date): Promise<void> {
  const timestamp = now.toISOString();
  const mirrored = await planPaidBooking(order, now);
  const email = mirrored ? await paidGuestBookingEmail(order, mirrored, now) : undefined;
  const items: TransactItem[] = [...(mirrored?.plan.items ?? []), ...(email ? [guestEmailItem(email)] : [])];
  const deliveries: DeliveryRecord[] = [...(mirrored?.plan.deliveries ?? [])];
  const paid: PaymentOrderRecord = { ...order, status: 'paid', paid_at: timestamp, booking_sync: mirrored?.bookingSync ?? NOT_APPLICABLE, updated_at: timestamp };
  const webhook = await getEndpoint(order.client_id, 'webhook');
  if (webhook) {
    const delivery = newDelivery({
      clientId: order.client_id,
      event: 'payment_order.paid',
      endpoint: 'webhook',
      payload: paymentOrderPaidPayload(paid),
      at: timestamp,
      payment_order_id: order.payment_order_id,
    });
    deliveries.push(delivery);
    items.push(deliveryPutItem(delivery));
  }
  items.push(
    orderUpdateItem(paid, order),
    ...settledAttemptItems(order, 'paid', payment.raw, timestamp),
    transactionItem(order.order_reference, {
      id: payment.paymentId ?? order.provider_reference,
      at: timestamp,
      provider: order.provider,
      provider_reference: order.provider_reference,
      kind: 'payment',
      amount_minor: payment.amountMinor,
      currency: payment.currency,
    }),
  );
  await transactWrite(items);
  await dispatchAll(deliveries);
  if (email) await sendCommittedEmails([email]);
  // A booking left for manual assignment (paid below its rate) does not keep its guest's hold.
  const roomId = order.context?.type === 'room_booking' ? order.context.service_room_id : undefined;
  if (roomId && mirrored?.bookingSync.room_assignment === 'manual') {
    await releaseCheckoutHold(order.client_id, roomId, paidOrderBookingId(order.client_id, order.order_reference), now);
  }
}

async function commitClosed(order: PaymentOrderRecord, payment: ProviderPayment, status: Exclude<OrderStatus, 'processing' | 'paid' | 'partially_refunded' | 'refunded'>, now: Date): Promise<void> {
  const timestamp = now.toISOString();
  await transactWrite([orderUpdateItem({ ...order, status, updated_at: timestamp }, order), ...settledAttemptItems(order, status, payment.raw, timestamp)]);
  // A guest's checkout that can no longer be paid frees its room now rather than at the hold's expiry.
  const roomId = order.context?.type === 'room_booking' ? order.context.service_room_id : undefined;
  if (roomId) await releaseCheckoutHold(order.client_id, roomId, paidOrderBookingId(order.client_id, order.order_reference), now);
}

/**
 * Asks the provider about the order's current checkout and records what it says: paid (when
 * amount and currency match), closed, or still open. Returns the order as it now stands, or
 * undefined for an unknown order.
 */
export async function reconcileOrder(orderReference: string, now = new Date()): Promise<PaymentOrderRecord | undefined> {
  for (let round = 0; round < 5; round++) {
    const order = await getOrder(orderReference);
    if (!order || order.status !== 'processing') return order;
    const account = await attemptAccount(order);
    const payment = await providerFor(account.provider).getPayment(order.provider_reference, account);
    const about = { order_reference: orderReference, provider: order.provider, provider_account: account.account ?? null, provider_reference: order.provider_reference };
    if (payment.state === 'open') return order;
    if (payment.state === 'not_found') {
      // Not proof of a failed payment (a provider outage or a misconfigured account looks the
      // same): the order stays processing, and someone is told.
      logger.warn('the provider cannot find the checkout of this attempt; the order stays processing', about);
      metrics.addMetric(PAYMENT_METRICS.checkoutNotFound, MetricUnit.Count, 1);
      return order;
    }
    const matches = payment.amountMinor === order.amount_minor && payment.currency === order.currency;
    try {
      if (payment.state === 'paid' && matches) {
        await commitPaid(order, payment, now);
      } else {
        if (payment.state === 'paid') {
          logger.error('provider reported a payment that does not match the order', about);
          metrics.addMetric(PAYMENT_METRICS.amountMismatch, MetricUnit.Count, 1);
        }
        await commitClosed(order, payment, payment.state === 'paid' ? 'failed' : payment.state, now);
      }
    } catch (error) {
      // A concurrent verify or booking changed what was read: read again.
      if (!isConditionFailure(error)) throw error;
    }
  }
  const order = await getOrder(orderReference);
  if (order?.status === 'processing') throw errors.serviceUnavailable();
  return order;
}

function redirectTo(url: string, outcome: 'success' | 'failed', orderReference: string): string {
  const target = new URL(url);
  target.searchParams.append('payment', outcome);
  target.searchParams.append('payment_order', orderReference);
  target.searchParams.append('reference', orderReference);
  return target.toString();
}

/**
 * What verify answers: a redirect to the order's return URL, or, for a guest page's order without
 * its attempt's return secret, a page that names no guest and holds no token (`paid` or not).
 */
export type VerifyOutcome = { redirect: string } | { page: 'paid' | 'not_paid'; clientId: string };

/**
 * The provider's return URL: where to send the payer, or undefined for an unknown order. A guest
 * page's return URLs are the guest's confirmation page (its token reads and cancels the booking):
 * only the request carrying the current attempt's return secret, which only that checkout's
 * redirect holds, is sent there (docs/reliability.md "Only the guest holds a guest's booking").
 */
export async function verifyPaymentOrder(orderReference: string, returnSecret: string | undefined, now = new Date()): Promise<VerifyOutcome | undefined> {
  const order = await reconcileOrder(orderReference, now);
  if (!order) return undefined;
  // Refunded since: it was paid all the same.
  const paid = order.status === 'paid' || order.status === 'partially_refunded' || order.status === 'refunded';
  if (isGuestPageOrder(order) && !isReturnSecretOf(order.return_secret_hash, returnSecret)) return { page: paid ? 'paid' : 'not_paid', clientId: order.client_id };
  return { redirect: paid ? redirectTo(order.success_url, 'success', order.order_reference) : redirectTo(order.cancel_url, 'failed', order.order_reference) };
}
