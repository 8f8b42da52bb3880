/** What partners see of an order: the create answer and the status lookup. */
import type { Principal } from '../../auth/authorize';
import { errors } from '../../errors';
import { majorAmount } from '../../schemas/payments';
import { type BookingSync, getOrder, type PaymentOrderRecord } from '../../store/payment-store';
import { refundCreatedView, refundViewsOf } from './refund-views';

export const NOT_APPLICABLE: BookingSync = {
  status: 'not_applicable',
  booking_id: null,
  booking_reference: null,
  confirmation_code: null,
  room_id: null,
  room_assignment: null,
  below_rate: false,
  room_assignment_reason: null,
};

export function orderCreatedView(order: PaymentOrderRecord, reused: boolean) {
  return {
    payment_order_id: order.payment_order_id,
    order_reference: order.order_reference,
    external_reference: order.external_reference,
    status: order.status,
    amount_minor: order.amount_minor,
    amount: majorAmount(order.amount_minor, order.currency),
    currency: order.currency,
    provider: order.provider,
    provider_reference: order.provider_reference,
    checkout_url: order.checkout_url,
    reused,
  };
}

const bookingSyncView = (sync: BookingSync): BookingSync => ({
  status: sync.status,
  booking_id: sync.booking_id,
  booking_reference: sync.booking_reference,
  confirmation_code: sync.confirmation_code,
  room_id: sync.room_id,
  room_assignment: sync.room_assignment,
  below_rate: sync.below_rate ?? false,
  room_assignment_reason: sync.room_assignment_reason ?? null,
});

export async function getPaymentOrderStatus(principal: Principal, orderReference: string) {
  const order = await getOrder(orderReference);
  // Another client's order is indistinguishable from a missing one.
  if (!order || order.client_id !== principal.clientId) {
    throw errors.paymentOrderNotFound(orderReference);
  }
  return {
    payment_order_id: order.payment_order_id,
    order_reference: order.order_reference,
    external_reference: order.external_reference,
    status: order.status,
    amount_minor: order.amount_minor,
    currency: order.currency,
    provider: order.provider,
    provider_reference: order.provider_reference,
    paid_at: order.paid_at ?? null,
    service_booking_sync: bookingSyncView(order.booking_sync ?? NOT_APPLICABLE),
    amount_refunded_minor: order.amount_refunded_minor ?? 0,
    refunds: (await refundViewsOf(order)).map(refundCreatedView),
  };
}
